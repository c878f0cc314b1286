import type { Ref } from 'react';
import type { DryRun } from './dryRun.ts';
import { RejectedLinesTable } from './RejectedLinesTable.tsx';
import type { DryRunState } from './useDryRun.ts';
import './dryRun.css';

const count = (value: number) => value.toLocaleString('en');
const plural = (value: number, one: string, many: string) => `${count(value)} ${value === 1 ? one : many}`;

/**
 * What the import would say of the chosen file, from its header and first rows, before anything is sent: whether the
 * header passes (the missing and unknown columns named), how many of the rows checked would be imported, and the
 * rejected ones with their line and reason. Focused when the upload is refused for what it says.
 */
export function DryRunSummary({ state, ref }: { state: DryRunState; ref?: Ref<HTMLElement> }) {
  if (state.kind === 'none') return null;
  return (
    <section ref={ref} tabIndex={-1} className="panel dry-run" aria-labelledby="dry-run-title">
      <h2 id="dry-run-title" className="dry-run__title">
        Check of {state.fileName}
      </h2>
      {state.kind === 'reading' && <p role="status">Reading the file's header and first rows…</p>}
      {state.kind === 'waiting-for-columns' && (
        <p role="status">Choose a trade direction to check the file against its columns.</p>
      )}
      {state.kind === 'unavailable' && (
        <p role="status">This browser could not read the file to check it: the server checks it once it is sent.</p>
      )}
      {state.kind === 'done' && <DryRunResult result={state.result} />}
    </section>
  );
}

function DryRunResult({ result }: { result: DryRun }) {
  if (result.problem) {
    return (
      <p role="status" className="dry-run__verdict dry-run__verdict--blocked">
        The file cannot be uploaded: {result.problem}
      </p>
    );
  }
  if (!result.sendable) {
    const { missing = [], unknown = [], repeated = [] } = result.header ?? {};
    return (
      <>
        <p role="status" className="dry-run__verdict dry-run__verdict--blocked">
          The file cannot be uploaded: its header does not match the columns of this trade direction. Correct the first
          row and choose the file again.
        </p>
        <ul className="dry-run__header-problems">
          {missing.length > 0 && <li>Missing columns: {missing.join(', ')}</li>}
          {unknown.length > 0 && <li>Unknown columns: {unknown.slice(0, 20).join(', ')}</li>}
          {repeated.length > 0 && <li>Repeated columns: {repeated.join(', ')}</li>}
        </ul>
      </>
    );
  }
  const scope = result.whole
    ? `Of the file's ${plural(result.checked, 'row', 'rows')}`
    : `Of its first ${plural(result.checked, 'row', 'rows')}`;
  return (
    <>
      <p
        role="status"
        className={`dry-run__verdict ${result.rejected ? 'dry-run__verdict--warning' : 'dry-run__verdict--passed'}`}
      >
        The header matches. {scope}, {count(result.accepted)} would be imported and {count(result.rejected)} rejected.
        {result.rejected > 0 &&
          ' Rejected rows are left out of the import: correct them first, or upload the file and download them from its log.'}
      </p>
      {result.rejections.length > 0 && (
        <RejectedLinesTable
          lines={result.rejections}
          regionLabel="Rows that would be rejected"
          caption={
            <>
              Rows that would be rejected
              {result.rejected > result.rejections.length &&
                ` (the first ${count(result.rejections.length)} of ${count(result.rejected)})`}
            </>
          }
        />
      )}
    </>
  );
}
