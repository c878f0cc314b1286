// An import's progress and its cancel request (table upload_progress): written by the importing instance on
// connections of their own, outside the import's transaction, so that every instance reads them while it runs.
import type { ImportProgress } from '../../../contract/uploadProgress.ts';
import type { Queryable } from '../../db/database.ts';

/** How often an import writes its progress (and reads whether it was cancelled). */
export const PROGRESS_INTERVAL_MS = 1000;

export interface ImportCounts {
  bytesRead: number;
  rowsRead: number;
  rowsAccepted: number;
  rowsRejected: number;
}

/** The import was cancelled by a user: everything it did is rolled back and the upload marked cancelled. */
export class ImportCancelled extends Error {
  constructor() {
    super('The import was cancelled.');
  }
}

/** Starts (or starts again) the progress of an upload's import; true when a cancel was already asked for. */
export async function startProgress(db: Queryable, uploadId: number, bytesTotal: number | null): Promise<boolean> {
  const [row] = await db.query<{ cancelled: boolean }>(
    `INSERT INTO upload_progress (upload_id, bytes_total, started_at, updated_at) VALUES ($1, $2, now(), now())
     ON CONFLICT (upload_id) DO UPDATE SET bytes_total = excluded.bytes_total, bytes_read = 0, rows_read = 0, rows_accepted = 0, rows_rejected = 0,
       started_at = now(), updated_at = now()
     RETURNING cancel_requested_at IS NOT NULL AS cancelled`,
    [uploadId, bytesTotal],
  );
  return row?.cancelled === true;
}

/** Writes how far the import has come; true when a cancel has been asked for meanwhile. */
export async function writeProgress(db: Queryable, uploadId: number, counts: ImportCounts): Promise<boolean> {
  const [row] = await db.query<{ cancelled: boolean }>(
    `UPDATE upload_progress SET bytes_read = $2, rows_read = $3, rows_accepted = $4, rows_rejected = $5, updated_at = now()
      WHERE upload_id = $1 RETURNING cancel_requested_at IS NOT NULL AS cancelled`,
    [uploadId, counts.bytesRead, counts.rowsRead, counts.rowsAccepted, counts.rowsRejected],
  );
  return row?.cancelled === true;
}

/** Whether a user asked to cancel the upload's import. */
export async function cancelRequested(db: Queryable, uploadId: number): Promise<boolean> {
  const [row] = await db.query<{ cancelled: boolean }>(
    'SELECT cancel_requested_at IS NOT NULL AS cancelled FROM upload_progress WHERE upload_id = $1',
    [uploadId],
  );
  return row?.cancelled === true;
}

/** Records a user's request to cancel an upload's import, which its importer reads within PROGRESS_INTERVAL_MS. */
export async function requestCancel(db: Queryable, uploadId: number, userId: number | null): Promise<void> {
  await db.query(
    `INSERT INTO upload_progress (upload_id, cancel_requested_at, cancel_requested_by) VALUES ($1, now(), $2)
     ON CONFLICT (upload_id) DO UPDATE SET cancel_requested_at = coalesce(upload_progress.cancel_requested_at, now()),
       cancel_requested_by = coalesce(upload_progress.cancel_requested_by, excluded.cancel_requested_by)`,
    [uploadId, userId],
  );
}

/** An upload's import progress, with its rate and time left, or null when none was written. */
export async function readProgress(db: Queryable, uploadId: number): Promise<ImportProgress | null> {
  const rows = await progressOf(db, [uploadId]);
  return rows.get(uploadId) ?? null;
}

/** The progress of several uploads (a page of the uploads list), by upload id. */
export async function progressOf(db: Queryable, uploadIds: readonly number[]): Promise<Map<number, ImportProgress>> {
  const rows = await db.query<
    { upload_id: number; elapsed: number | null } & Omit<
      ImportProgress,
      'rows_per_second' | 'seconds_left' | 'cancel_requested'
    > & { cancel_requested_at: string | null }
  >(
    `SELECT upload_id, bytes_total, bytes_read, rows_read, rows_accepted, rows_rejected, started_at, updated_at, cancel_requested_at,
            extract(epoch FROM updated_at - started_at)::float8 AS elapsed
       FROM upload_progress WHERE upload_id = ANY($1::bigint[])`,
    [uploadIds],
  );
  return new Map(
    rows.map(({ upload_id: uploadId, elapsed, cancel_requested_at: cancelAt, ...row }) => {
      const seconds = elapsed !== null && elapsed > 0 ? elapsed : null;
      const bytesPerSecond = seconds ? row.bytes_read / seconds : null;
      const left =
        bytesPerSecond && row.bytes_total !== null
          ? Math.max(0, (row.bytes_total - row.bytes_read) / bytesPerSecond)
          : null;
      return [
        uploadId,
        {
          ...row,
          rows_per_second: seconds ? Math.round(row.rows_read / seconds) : null,
          seconds_left: left === null ? null : Math.round(left),
          cancel_requested: cancelAt !== null,
        },
      ];
    }),
  );
}

/** How many uploads are being imported now, by any instance. */
export async function importsRunning(db: Queryable): Promise<number> {
  const [row] = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM data_uploads WHERE status = 'processing'`,
  );
  return row?.count ?? 0;
}

/** Rows read per second by the imports running now, summed, each since it started. */
export async function importsPace(db: Queryable): Promise<number> {
  const [row] = await db.query<{ pace: number | null }>(
    `SELECT sum(p.rows_read / greatest(extract(epoch FROM p.updated_at - p.started_at), 1))::float8 AS pace
       FROM upload_progress p JOIN data_uploads u ON u.id = p.upload_id WHERE u.status = 'processing'`,
  );
  return row?.pace ?? 0;
}
