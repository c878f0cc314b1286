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

/** Records the SHA-256 of all the bytes of the file stored under `storageKey`, once its last chunk arrived. */
export async function recordReceivedHash(db: Queryable, storageKey: string, sha256: string): Promise<void> {
  await db.query('UPDATE upload_files SET received_sha256 = $2 WHERE storage_key = $1 AND stored_at IS NULL', [
    storageKey,
    sha256,
  ]);
}

/** Starts an upload's file row: who sends it, the size declared, and when an unfinished upload is abandoned. */
export async function addUploadFile(
  tx: Queryable,
  file: { uploadId: number; userId: number; declaredSize: number; expiresAt: number },
): Promise<void> {
  await tx.query(
    'INSERT INTO upload_files (upload_id, user_id, declared_size, expires_at) VALUES ($1, $2, $3, to_timestamp($4))',
    [file.uploadId, file.userId, file.declaredSize, file.expiresAt],
  );
}

/** What an upload's log shows of its file: when it was stored and processed, its error, whether it replaces another. */
export async function fileLog(db: Queryable, uploadId: number): Promise<Record<string, unknown> | undefined> {
  const [file] = await db.query(
    'SELECT stored_at, processed_at, error, replaces_published FROM upload_files WHERE upload_id = $1',
    [uploadId],
  );
  return file;
}

/** Who started an upload, and when its import ended (null while it has not). */
export async function fileOwner(
  db: Queryable,
  uploadId: number,
): Promise<{ user_id: number | null; processed_at: string | null } | undefined> {
  const [file] = await db.query<{ user_id: number | null; processed_at: string | null }>(
    'SELECT user_id, processed_at FROM upload_files WHERE upload_id = $1',
    [uploadId],
  );
  return file;
}

/**
 * Locks the file of an upload that has not ended and that no import holds (an import holds its row to its commit),
 * and answers where its bytes are so far; undefined when an import holds it or it has ended.
 */
export async function lockIdleFile(
  tx: Queryable,
  uploadId: number,
): Promise<{ stored_at: string | null; storage_key: string | null } | undefined> {
  const [idle] = await tx.query<{ stored_at: string | null; storage_key: string | null }>(
    'SELECT stored_at, storage_key FROM upload_files WHERE upload_id = $1 AND processed_at IS NULL FOR UPDATE SKIP LOCKED',
    [uploadId],
  );
  return idle;
}

/** Ends an upload's processing, with the error that ended it (null: its import ended well). */
export async function endProcessing(tx: Queryable, uploadId: number, error: string | null): Promise<void> {
  await tx.query('UPDATE upload_files SET processed_at = now(), error = $2 WHERE upload_id = $1', [uploadId, error]);
}

/**
 * Records that an upload replaces what is published for its country, trade direction and period, while its import
 * has not ended; true when it did.
 */
export async function markReplacesPublished(tx: Queryable, uploadId: number): Promise<boolean> {
  const rows = await tx.query(
    'UPDATE upload_files SET replaces_published = true WHERE upload_id = $1 AND processed_at IS NULL RETURNING upload_id',
    [uploadId],
  );
  return rows.length > 0;
}

/** Whether an upload's uploader confirmed that it replaces what is published for its month. */
export async function replacesPublished(db: Queryable, uploadId: number): Promise<boolean> {
  const [file] = await db.query<{ replaces_published: boolean }>(
    'SELECT replaces_published FROM upload_files WHERE upload_id = $1',
    [uploadId],
  );
  return file?.replaces_published ?? false;
}

/** Removes the file rows of deleted uploads; answers the keys their stored files were kept under. */
export async function removeUploadFiles(tx: Queryable, uploadIds: readonly number[]): Promise<string[]> {
  const files = await tx.query<{ storage_key: string | null }>(
    'DELETE FROM upload_files WHERE upload_id = ANY($1::bigint[]) RETURNING storage_key',
    [uploadIds],
  );
  return files.flatMap((file) => (file.storage_key ? [file.storage_key] : []));
}
