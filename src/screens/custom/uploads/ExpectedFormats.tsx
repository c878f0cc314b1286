import { ACCEPTED_FORMATS, HS_CODE_FORMAT, templateCsv, type TradeColumn } from '../../../../validation/tradeRows.ts';
import { ColumnHeadings } from '../../shared/ColumnHeadings.tsx';
import { saveBlob } from '../../shared/saveBlob.ts';
import './dryRun.css';

/** What a column's values must look like, in the words the import's messages use. */
function formatOf(column: TradeColumn): string {
  return column.name === 'hs_code' ? HS_CODE_FORMAT : ACCEPTED_FORMATS[column.type];
}

/**
 * The columns a file for the chosen trade direction has, each with the format its values are accepted in, and a
 * template CSV of them made here from the same list (its header and one example shipment).
 */
export function ExpectedFormats({
  columns,
  tradeDirection,
  open,
}: {
  columns: readonly TradeColumn[];
  tradeDirection: string;
  open: boolean;
}) {
  const download = () =>
    saveBlob(new Blob([templateCsv(columns)], { type: 'text/csv' }), `trade-data-${tradeDirection}-template.csv`);
  return (
    <details className="dry-run__formats" open={open || undefined}>
      <summary>Expected columns and formats</summary>
      <div className="table-region" role="region" aria-label="Expected columns" tabIndex={0}>
        <table className="data-table">
          <caption>Columns of an {tradeDirection} file, in this order</caption>
          <ColumnHeadings names={['Column', 'Required', 'Accepted values']} />
          <tbody>
            {columns.map((column) => (
              <tr key={column.name}>
                <td>{column.name}</td>
                <td>{column.required ? 'Yes' : 'No'}</td>
                <td>{formatOf(column)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        A file is CSV in UTF-8 (or CSV compressed with gzip, named .csv.gz), commas between fields; a field holding a
        comma is quoted (&quot;1,23,456.50&quot;).{' '}
        <button type="button" className="button" onClick={download}>
          Download a template CSV
        </button>
      </p>
    </details>
  );
}
