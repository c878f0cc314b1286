import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import { HttpError } from '../../http/errors.ts';
import { recordFileOutcome } from './audit.ts';
import { setUploadState } from './processor.ts';

/** An upload's file as `upload_files` keeps it: who started it, what was declared, and how far it got. */
export interface PendingFile {
  user_id: number | null;
  declared_size: number;
  expires_at: string;
  storage_key: string | null;
  stored_at: string | null;
  processed_at: string | null;
}

/** Ends a bucket upload whose file failed a check: the file is removed, the upload failed with the reason in its log. */
export async function refuse(app: FastifyInstance, request: FastifyRequest, uploadId: number, key: string, reason: string): Promise<void> {
  const ended = await app.db.transaction(async (tx) => {
    const rows = await tx.query('UPDATE upload_files SET processed_at = now(), error = $2 WHERE upload_id = $1 AND stored_at IS NULL AND processed_at IS NULL RETURNING upload_id', [uploadId, reason]);
    if (rows.length) {
      await setUploadState(tx, uploadId, { status: 'failed' });
      await recordFileOutcome(tx, request, uploadId, request.user?.id ?? null, { accepted: false, reason });
    }
    return rows.length > 0;
  });
  // A concurrent completion of the same upload has already decided its fate (and kept or removed the file).
  if (!ended) throw new HttpError(409, 'This upload was already completed.');
  await app.storage.remove(key);
}

export async function pendingFile(db: Queryable, uploadId: number): Promise<PendingFile | undefined> {
  const [file] = await db.query<PendingFile & Record<string, unknown>>(
    'SELECT user_id, declared_size, expires_at, storage_key, stored_at, processed_at FROM upload_files WHERE upload_id = $1',
    [uploadId],
  );
  return file;
}

export function newStorageKey(uploadId: number): string {
  return `uploads/${uploadId}-${randomBytes(8).toString('hex')}.csv`;
}
