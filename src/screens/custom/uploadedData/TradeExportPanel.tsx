import type { UseTradeExportResult } from './useTradeExport.ts';
import { BusyButton } from '../../shared/BusyButton.tsx';

/** A background export's progress, then its download link (or why it failed). */
export function TradeExportPanel({
  job,
  downloading,
  download,
}: Pick<UseTradeExportResult, 'job' | 'downloading' | 'download'>) {
  if (!job) return null;
  const written = job.rows_written.toLocaleString('en');
  const estimated = Math.max(job.rows_estimated, job.rows_written);
  return (
    <section className="panel" aria-label="Export">
      {job.status === 'completed' ? (
        <p role="status">
          Export ready: {written} records.{' '}
          <BusyButton
            className="button button--primary"
            onClick={() => void download()}
            busy={downloading}
            busyLabel="Downloading…"
          >
            Download export
          </BusyButton>
        </p>
      ) : job.status === 'failed' ? (
        <p role="alert" className="field-error">
          The export failed: {job.error ?? 'unknown error'}
        </p>
      ) : (
        <>
          <p role="status">
            Exporting in the background: {written} of about {estimated.toLocaleString('en')} records written.
          </p>
          <progress aria-label="Export progress" max={estimated || 1} value={job.rows_written} />
        </>
      )}
    </section>
  );
}
