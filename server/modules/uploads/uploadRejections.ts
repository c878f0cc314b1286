// The rows an upload's import rejected (`upload_rejections`): written by the import, read by the upload's log, its
// download and its review's samples, removed with the upload.
import type { Queryable } from '../../db/database.ts';
import type { Rejection } from './tradeRows.ts';

const REJECTION_BATCH = 500;

/** A rejected row: its line in the file, why it was rejected, and the row as it was. */
interface RejectedRow {
  line: number;
  reason: string;
  row_text: string | null;
}

/** Keeps an upload's rejections (line, reason and the row as it was) for its log and their download. */
export async function storeRejections(
  tx: Queryable,
  uploadId: number,
  rejections: readonly Rejection[],
): Promise<void> {
  for (let start = 0; start < rejections.length; start += REJECTION_BATCH) {
    const slice = rejections.slice(start, start + REJECTION_BATCH);
    await tx.query(
      'INSERT INTO upload_rejections (upload_id, line, reason, row_text) SELECT $1, l, r, t FROM unnest($2::int[], $3::text[], $4::text[]) AS x(l, r, t) ON CONFLICT DO NOTHING',
      [
        uploadId,
        slice.map((rejection) => rejection.line),
        slice.map((rejection) => rejection.reason),
        slice.map((rejection) => rejection.row),
      ],
    );
  }
}

/** The first `limit` of an upload's rejections by line, without the rows (what its log lists). */
export function rejectionReasons(
  db: Queryable,
  uploadId: number,
  limit: number,
): Promise<Array<Pick<RejectedRow, 'line' | 'reason'>>> {
  return db.query<Pick<RejectedRow, 'line' | 'reason'> & Record<string, unknown>>(
    'SELECT line, reason FROM upload_rejections WHERE upload_id = $1 ORDER BY line LIMIT $2',
    [uploadId, limit],
  );
}

/** Up to `limit` of an upload's rejected rows after line `afterLine`, by line. */
export function rejectedRows(
  db: Queryable,
  uploadId: number,
  afterLine: number,
  limit: number,
): Promise<RejectedRow[]> {
  return db.query<RejectedRow & Record<string, unknown>>(
    'SELECT line, reason, row_text FROM upload_rejections WHERE upload_id = $1 AND line > $2 ORDER BY line LIMIT $3',
    [uploadId, afterLine, limit],
  );
}

/** Removes the rejections of deleted uploads. */
export async function removeRejections(tx: Queryable, uploadIds: readonly number[]): Promise<void> {
  await tx.query('DELETE FROM upload_rejections WHERE upload_id = ANY($1::bigint[])', [uploadIds]);
}
