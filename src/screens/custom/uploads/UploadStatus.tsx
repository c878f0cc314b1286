import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ImportProgress } from '../../../../contract/uploadProgress.ts';
import { useState } from 'react';
import { http } from '../../../http/index.ts';
import { useCanAccess } from '../../../permissions/index.ts';
import { saveBlob } from '../../shared/saveBlob.ts';
import type { FieldDescription } from '../../../generated/types.ts';
import { enumLabel } from '../../shared/formatValue.ts';
import { RejectedLinesTable } from './RejectedLinesTable.tsx';

interface UploadLog {
  upload: {
    id: number;
    version: number;
    status: string;
    file_name: string;
    rows_total: number | null;
    rows_accepted: number | null;
    rows_rejected: number | null;
    error?: string | null;
  };
  progress: ImportProgress | null;
  rejected: { line: number; reason: string }[];
}

/** How often a processing upload's status is asked again. */
export const UPLOAD_POLL_MS = 2000;
/** Statuses after which an upload's import has ended (one waiting for review changes only by a reviewer's decision). */
export const FINISHED = new Set([
  'published',
  'needs_review',
  'rejected',
  'failed',
  'cancelled',
  'replaced',
  'abandoned',
]);

export interface UploadStatusProps {
  api: string;
  uploadId: number | string;
  /** The upload's status field, whose labels name each status. */
  statusField: FieldDescription | undefined;
}

/** An upload's log, asked again while it is processing; one request however many components read it. */
export function useUploadLog(api: string, uploadId: number | string) {
  return useQuery({
    queryKey: ['resource', api, 'log', String(uploadId)],
    queryFn: ({ signal }) =>
      http.get<{ data: UploadLog }>(`${api}/${uploadId}/log`, { loader: false, signal }).then((body) => body.data),
    refetchInterval: (query) =>
      query.state.data && FINISHED.has(query.state.data.upload.status) ? false : UPLOAD_POLL_MS,
  });
}

/** An upload's processing status, followed until it finishes, and the lines it rejected. */
export function UploadStatus({ api, uploadId, statusField }: UploadStatusProps) {
  const log = useUploadLog(api, uploadId);
  if (!log.data) return <p role="status">Checking the upload…</p>;
  const { upload, progress, rejected } = log.data;
  const running = !FINISHED.has(upload.status);
  return (
    <section className="panel" aria-labelledby="upload-status-title">
      <h2 id="upload-status-title">{upload.file_name}</h2>
      <p role="status">
        Status:{' '}
        <span className="status-badge">{statusField ? enumLabel(statusField, upload.status) : upload.status}</span>
      </p>
      {upload.error && <p className="field-error">{upload.error}</p>}
      {upload.status === 'needs_review' && (
        <p>
          Its checks found it unlike the months before: customers see none of its records until a reviewer publishes it,
          on the upload's page.
        </p>
      )}
      {running && progress && <ImportProgressBar progress={progress} />}
      {running && <CancelUpload api={api} uploadId={uploadId} requested={progress?.cancel_requested === true} />}
      <dl className="stat-grid">
        <div className="stat">
          <dt>Rows</dt>
          <dd>{upload.rows_total ?? '—'}</dd>
        </div>
        <div className="stat">
          <dt>Accepted</dt>
          <dd>{upload.rows_accepted ?? '—'}</dd>
        </div>
        <div className="stat">
          <dt>Rejected</dt>
          <dd>{upload.rows_rejected ?? '—'}</dd>
        </div>
      </dl>
      {rejected.length > 0 && <DownloadRejections api={api} uploadId={uploadId} />}
      {rejected.length > 0 && <RejectedLinesTable lines={rejected} caption="Rejected lines" />}
    </section>
  );
}

/** How far a running import has read its file, with its rows so far, its rate and the time left. */
export function ImportProgressBar({ progress }: { progress: ImportProgress }) {
  const fraction = progress.bytes_total ? Math.min(1, progress.bytes_read / progress.bytes_total) : null;
  return (
    <div className="import-progress">
      {fraction !== null && <progress max={1} value={fraction} aria-label="File read" />}
      <p>
        {fraction !== null && `${Math.floor(fraction * 100)}% read · `}
        {progress.rows_read.toLocaleString('en')} rows ({progress.rows_accepted.toLocaleString('en')} accepted,{' '}
        {progress.rows_rejected.toLocaleString('en')} rejected)
        {progress.rows_per_second !== null && ` · ${progress.rows_per_second.toLocaleString('en')} rows/s`}
        {progress.seconds_left !== null && ` · about ${formatDuration(progress.seconds_left)} left`}
      </p>
    </div>
  );
}

/** A time left, as a person says it. */
export function formatDuration(seconds: number): string {
  return seconds < 90 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}

/** Cancels the upload (its uploader, or a user who may delete uploads; the server decides). */
function CancelUpload({ api, uploadId, requested }: { api: string; uploadId: number | string; requested: boolean }) {
  const queryClient = useQueryClient();
  const mayAdd = useCanAccess('DATA_UPLOAD_LOGS', 'add').allowed;
  const mayDelete = useCanAccess('DATA_UPLOAD_LOGS', 'delete').allowed;
  const [sent, setSent] = useState(false);
  if (requested || sent) return <p role="status">Cancelling…</p>;
  if (!mayAdd && !mayDelete) return null;
  const cancel = async () => {
    setSent(true);
    try {
      await http.post(`${api}/${uploadId}/cancel`, {});
    } catch {
      setSent(false);
    }
    await queryClient.invalidateQueries({ queryKey: ['resource', api, 'log', String(uploadId)] });
  };
  return (
    <button type="button" className="button" onClick={() => void cancel()}>
      Cancel the import
    </button>
  );
}

/** The rejected rows (line, reason and the row as it was) as a CSV file. */
function DownloadRejections({ api, uploadId }: { api: string; uploadId: number | string }) {
  const download = async () => {
    try {
      saveBlob(await http.download(`${api}/${uploadId}/rejections.csv`), `upload-${uploadId}-rejected-rows.csv`);
    } catch {
      // The http client has already shown the error toast.
    }
  };
  return (
    <button type="button" className="button" onClick={() => void download()}>
      Download rejected rows
    </button>
  );
}
