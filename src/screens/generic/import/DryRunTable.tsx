import { OUTCOME_LABELS, type DryRunResult, type Outcome, type UploadedFile } from './importTypes.ts';

export interface DryRunTableProps {
  file: UploadedFile;
  mapping: Record<string, string | null>;
  result: DryRunResult;
}

const OUTCOMES: Outcome[] = ['create', 'update', 'unchanged', 'error'];

/** The dry run: how many rows of each outcome, then the rows shown, each refusal under the cell it is about. */
export function DryRunTable({ file, mapping, result }: DryRunTableProps) {
  const fieldOf = (heading: string) => mapping[heading] ?? null;
  const titleOf = (name: string) => file.fields.find((field) => field.name === name)?.title ?? name;
  const mappedFields = new Set(Object.values(mapping).filter((name): name is string => name !== null));
  return (
    <>
      <ul className="import-counts" aria-label="Dry run">
        {OUTCOMES.map((outcome) => (
          <li key={outcome} className={`import-counts__item import-counts__item--${outcome}`}>
            <strong>{result.counts[outcome].toLocaleString('en')}</strong> {OUTCOME_LABELS[outcome].toLowerCase()}
          </li>
        ))}
      </ul>
      {/* Focusable, so a keyboard can scroll the rows sideways on a narrow screen. */}
      <div className="table-region" role="region" aria-label="Rows of the file" tabIndex={0}>
        <table className="data-table import-rows">
          <caption>Rows of the file (refused rows first to fix)</caption>
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Outcome</th>
              {file.headings.map((heading, index) => (
                <th scope="col" key={`${heading}-${index}`}>
                  {heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {result.rows.map((row) => {
              const rowErrors = Object.entries(row.errors).filter(([name]) => !mappedFields.has(name));
              return (
                <tr key={row.line} className={`import-row import-row--${row.outcome}`}>
                  <th scope="row">{row.line}</th>
                  <td>
                    {OUTCOME_LABELS[row.outcome]}
                    {rowErrors.map(([name, message]) => (
                      <span key={name} className="field-error">
                        {name === '_' ? message : `${titleOf(name)}: ${message}`}
                      </span>
                    ))}
                  </td>
                  {file.headings.map((heading, index) => {
                    const field = fieldOf(heading);
                    const error = field ? row.errors[field] : undefined;
                    const changed = field !== null && row.changed.includes(field);
                    return (
                      <td
                        key={`${heading}-${index}`}
                        className={
                          [error ? 'import-cell--error' : '', changed ? 'import-cell--changed' : ''].join(' ').trim() ||
                          undefined
                        }
                      >
                        {row.cells[index]}
                        {error && <span className="field-error">{error}</span>}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
