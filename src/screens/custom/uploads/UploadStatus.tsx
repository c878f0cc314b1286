import { useQuery } from '@tanstack/react-query';
import { http } from '../../../http/index.ts';
import type { FieldDescription } from '../../../generated/types.ts';
import { enumLabel } from '../../shared/formatValue.ts';
import { ColumnHeadings } from '../../shared/ColumnHeadings.tsx';

interface UploadLog {
  upload: { id: number; version: number; status: string; file_name: string; rows_total: number | null; rows_accepted: number | null; rows_rejected: number | null; error?: string | null };
  rejected: { line: number; reason: string }[];
}

/** How often a processing upload's status is asked again. */
export const UPLOAD_POLL_MS = 2000;
const FINISHED = new Set(['completed', 'failed']);

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
    queryFn: ({ signal }) => http.get<{ data: UploadLog }>(`${api}/${uploadId}/log`, { loader: false, signal }).then((body) => body.data),
    refetchInterval: (query) => (query.state.data && FINISHED.has(query.state.data.upload.status) ? false : UPLOAD_POLL_MS),
  });
}

/** An upload's processing status, followed until it finishes, and the lines it rejected. */
export function UploadStatus({ api, uploadId, statusField }: UploadStatusProps) {
  const log = useUploadLog(api, uploadId);
  if (!log.data) return <p role="status">Checking the upload…</p>;
  const { upload, rejected } = log.data;
  return (
    <section className="panel" aria-labelledby="upload-status-title">
      <h2 id="upload-status-title">{upload.file_name}</h2>
      <p role="status">
        Status: <span className="status-badge">{statusField ? enumLabel(statusField, upload.status) : upload.status}</span>
      </p>
      {upload.error && <p className="field-error">{upload.error}</p>}
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
      {rejected.length > 0 && (
        <table className="data-table">
          <caption>Rejected lines</caption>
          <ColumnHeadings names={['Line', 'Reason']} />
          <tbody>
            {rejected.map((line) => (
              <tr key={line.line}>
                <td>{line.line}</td>
                <td>{line.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
