import { useQuery } from '@tanstack/react-query';
import type { TradeColumn } from '../../../../validation/tradeRows.ts';
import { http } from '../../../http/index.ts';

/** The data columns a trade file's header is checked against for a trade direction (`uploads/columns`), once loaded. */
export function useExpectedColumns(api: string, tradeDirection: string) {
  return useQuery({
    queryKey: ['resource', api, 'columns', tradeDirection],
    queryFn: ({ signal }) =>
      http.get<{ data: TradeColumn[] }>(`${api}/columns`, { params: { trade_direction: tradeDirection }, signal }),
    enabled: tradeDirection !== '',
    select: (answer) => answer.data,
  });
}

/** The header a trade file needs for a trade direction: the data columns the server checks it against. */
export function ExpectedColumns({ api, tradeDirection }: { api: string; tradeDirection: string }) {
  const columns = useExpectedColumns(api, tradeDirection);
  if (tradeDirection === '')
    return <p className="field-help">Choose a trade direction to see the columns its CSV file needs.</p>;
  if (!columns.data)
    return (
      <p className="field-help">
        {columns.isError ? 'The expected columns could not be loaded.' : 'Loading the expected columns…'}
      </p>
    );
  const names = (required: boolean) =>
    columns.data
      .filter((column) => column.required === required)
      .map((column) => column.name)
      .join(', ');
  const optional = names(false);
  return (
    <p className="field-help">
      {`The first row of the CSV file names its columns. Required: ${names(true)}.${optional ? ` Optional: ${optional}.` : ''} The file's first 1,000 rows are checked when it is chosen, before anything is sent.`}
    </p>
  );
}
