import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, type ReactNode } from 'react';
import { DATA_UPLOAD_FIELDS } from '../../../../contract/modules.ts';
import type { ImportProgress } from '../../../../contract/uploadProgress.ts';
import type { FieldDescription, ResourceDescription } from '../../../generated/types.ts';
import { http } from '../../../http/index.ts';
import { enumLabel, type Row } from '../../shared/formatValue.ts';
import { FINISHED, formatDuration, UPLOAD_POLL_MS } from './UploadStatus.tsx';
import './uploadProgressCell.css';

type UploadProgress = ImportProgress & { upload_id: number; status: string };

/**
 * The uploads list's Status cells while uploads of its page are being processed: each one's live progress, asked for
 * the whole page every UPLOAD_POLL_MS; once one has ended, the page is loaded again (its counts and status).
 * `resource` null: another list, nothing is asked.
 */
export function useUploadProgressCells(
  resource: ResourceDescription | null,
  rows: readonly Row[],
  listKey: readonly unknown[],
): ((columnId: string, row: Row) => ReactNode | undefined) | undefined {
  const queryClient = useQueryClient();
  const running = useMemo(
    () => (resource ? rows.filter((row) => !FINISHED.has(String(row.status))).map((row) => Number(row.id)) : []),
    [resource, rows],
  );
  const api = resource?.api ?? '';
  const progress = useQuery({
    queryKey: ['resource', api, 'progress', running.join(',')],
    queryFn: ({ signal }) =>
      http
        .get<{ data: UploadProgress[] }>(`${api}/progress`, {
          params: { ids: running.join(',') },
          loader: false,
          signal,
        })
        .then((body) => new Map(body.data.map((entry) => [entry.upload_id, entry]))),
    enabled: running.length > 0,
    refetchInterval: UPLOAD_POLL_MS,
  });
  const ended = running.some((id) => FINISHED.has(progress.data?.get(id)?.status ?? ''));
  useEffect(() => {
    if (ended) void queryClient.invalidateQueries({ queryKey: listKey, exact: true });
  }, [ended, queryClient, listKey]);

  const status = DATA_UPLOAD_FIELDS.status.field;
  const statusField = resource?.entity?.fields.find((field) => field.name === status);
  if (!resource || !statusField || running.length === 0) return undefined;
  return (columnId, row) => {
    if (columnId !== status || FINISHED.has(String(row[status]))) return undefined;
    return (
      <UploadProgressCell
        field={statusField}
        status={String(row[status])}
        progress={progress.data?.get(Number(row.id)) ?? null}
      />
    );
  };
}

/** A running upload's status with how far its import has come: a bar of the file read and the time left. */
function UploadProgressCell({
  field,
  status,
  progress,
}: {
  field: FieldDescription;
  status: string;
  progress: UploadProgress | null;
}) {
  const fraction = progress?.bytes_total ? Math.min(1, progress.bytes_read / progress.bytes_total) : null;
  const label = enumLabel(field, progress?.status ?? status);
  // An import that has just ended shows its end at once, without the bar, while the list's page is loaded again.
  if (!progress || fraction === null || FINISHED.has(progress.status)) return <span>{label}</span>;
  const percent = Math.floor(fraction * 100);
  return (
    <span className="upload-progress-cell">
      <span>{label}</span>
      <progress max={1} value={fraction} aria-label={`${label}: ${percent}% of the file read`} />
      <span className="upload-progress-cell__detail">
        {percent}% · {progress.rows_read.toLocaleString('en')} rows
        {progress.seconds_left !== null && ` · about ${formatDuration(progress.seconds_left)} left`}
      </span>
    </span>
  );
}
