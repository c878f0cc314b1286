import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import { HttpError } from '../../http/errors.ts';
import { isGzipName } from './fileChecks.ts';
import { uploader } from './audit.ts';
import { setUploadState } from './uploadState.ts';

/** An upload's file as `upload_files` keeps it: who started it, what was declared, and how far it got. */
export interface PendingFile {
  user_id: number | null;
  declared_size: number;
  expires_at: string;
  storage_key: string | null;
  /** The SHA-256 of all the file's bytes, recorded when its last chunk was stored. */
  received_sha256: string | null;
  stored_at: string | null;
  processed_at: string | null;
}

/** Ends an upload whose file failed a check: the file is removed, the upload failed with the reason in its log. */
export async function refuse(
  app: FastifyInstance,
  request: FastifyRequest,
  uploadId: number,
  key: string,
  reason: string,
): Promise<void> {
  const ended = await app.db.transaction(async (tx) => {
    const rows = await tx.query(
      'UPDATE upload_files SET processed_at = now(), error = $2 WHERE upload_id = $1 AND stored_at IS NULL AND processed_at IS NULL RETURNING upload_id',
      [uploadId, reason],
    );
    if (rows.length) {
      const actor = await uploader(tx, request.user?.id ?? null, request);
      await setUploadState(
        app,
        tx,
        uploadId,
        { status: 'failed' },
        { actor, action: 'upload', details: { accepted: false, reason } },
      );
    }
    return rows.length > 0;
  });
  // A concurrent completion of the same upload has already decided its fate (and kept or removed the file).
  if (!ended) throw new HttpError(409, 'This upload was already completed.');
  await app.storage.remove(key);
}

export async function pendingFile(db: Queryable, uploadId: number): Promise<PendingFile | undefined> {
  const [file] = await db.query<PendingFile & Record<string, unknown>>(
    'SELECT user_id, declared_size, expires_at, storage_key, received_sha256, stored_at, processed_at FROM upload_files WHERE upload_id = $1',
    [uploadId],
  );
  return file;
}

/**
 * The key the file of an upload is stored under, fixed by the first request that asks (a random part, so no key is
 * guessed or reused), with the extension of its name (`.csv`, `.csv.gz`).
 */
export async function storageKeyFor(db: Queryable, uploadId: number, fileName: string): Promise<string> {
  const key = `uploads/${uploadId}-${randomBytes(8).toString('hex')}.${isGzipName(fileName) ? 'csv.gz' : 'csv'}`;
  const [row] = await db.query<{ storage_key: string }>(
    'UPDATE upload_files SET storage_key = coalesce(storage_key, $2) WHERE upload_id = $1 RETURNING storage_key',
    [uploadId, key],
  );
  if (!row) throw new Error(`No upload ${uploadId}`);
  return row.storage_key;
}
