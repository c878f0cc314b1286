import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { escapeHtml } from '../../http/html.ts';
import { PeriodicJob } from '../../jobs/periodicJob.ts';
import { MODULE, entityResource } from '../../registry.ts';
import { notify, recordLink } from '../notifications/store.ts';
import { ResourceTable } from '../resources/sql.ts';
import { uploader } from './audit.ts';
import { UploadFileLocker } from './fileLocks.ts';
import type { FileStorage } from './storage.ts';
import { setUploadState } from './uploadState.ts';

/** How often uploads whose file never arrived, or stopped arriving, are looked for. */
const ROUND_MILLISECONDS = 5 * 60_000;
/** How many expired uploads a round ends at most; the next round takes the rest. */
const ROUND_SIZE = 500;
/** What the log says of an upload whose file never started to arrive before its link expired. */
export const ABANDONED_ERROR = 'The file never arrived before the upload link expired. Start the upload again.';
/** What the log says of an upload whose file started to arrive (tus) but was not sent in full before its link expired. */
export const STALLED_ERROR =
  'The file did not arrive in full before the upload link expired, so the part that had arrived was removed. Start the upload again.';

interface Expired {
  upload_id: number;
  user_id: number | null;
  storage_key: string | null;
}

/**
 * Ends the uploads whose signed link expired before their file was completed: the file never started to arrive, or
 * its transfer stalled part way. Each ends `abandoned` with the reason in its log, its uploader is notified, and what
 * arrived of its file is removed (the folder's file and what tus keeps beside it; in a bucket, the multipart upload is
 * aborted). A file a request is still writing (a chunk started before the expiry) is left to the next round. Then the
 * partial files of uploads that ended otherwise before their file was stored (cancelled while it arrived) and that a
 * request was still writing then are removed. Safe in every instance at once: the upload's row, claimed with SKIP
 * LOCKED, decides who ends it, and the file's lock who removes it. The ids of the uploads it ended.
 */
export async function endAbandonedUploads(app: FastifyInstance): Promise<number[]> {
  const expired = await app.db.query<Expired & Record<string, unknown>>(
    'SELECT upload_id, user_id, storage_key FROM upload_files WHERE stored_at IS NULL AND processed_at IS NULL AND expires_at < now() ORDER BY upload_id LIMIT $1',
    [ROUND_SIZE],
  );
  const locker = new UploadFileLocker(app.db);
  const ended: number[] = [];
  for (const upload of expired) {
    const lock = upload.storage_key ? await locker.tryLock(upload.storage_key) : null;
    if (upload.storage_key && !lock) continue;
    try {
      if (!(await abandon(app, upload))) continue;
      ended.push(upload.upload_id);
      if (upload.storage_key) await removeUnstored(app, upload.upload_id, upload.storage_key);
    } catch (error) {
      app.log.error(
        { err: error, upload: upload.upload_id },
        'ending an abandoned upload failed; the next round tries again',
      );
    } finally {
      await lock?.unlock();
    }
  }
  const leftOver = await app.db.query<{ upload_id: number; storage_key: string }>(
    'SELECT upload_id, storage_key FROM upload_files WHERE stored_at IS NULL AND processed_at IS NOT NULL AND storage_key IS NOT NULL ORDER BY upload_id LIMIT $1',
    [ROUND_SIZE],
  );
  for (const upload of leftOver) {
    try {
      await removeUnstoredFile(app, upload.upload_id, upload.storage_key, locker);
    } catch (error) {
      app.log.error(
        { err: error, upload: upload.upload_id },
        'removing the partial file of an ended upload failed; the next round tries again',
      );
    }
  }
  return ended;
}

/**
 * Removes what arrived of the file of an upload that ended before its file was stored (cancelled, or abandoned), unless
 * a request is still writing it: then the abandoned-uploads job removes it in a later round. True when removed.
 */
export async function removeUnstoredFile(
  app: FastifyInstance,
  uploadId: number,
  key: string,
  locker = new UploadFileLocker(app.db),
): Promise<boolean> {
  const lock = await locker.tryLock(key);
  if (!lock) return false;
  try {
    await removeUnstored(app, uploadId, key);
    return true;
  } finally {
    await lock.unlock();
  }
}

/** Under the file's lock: removes the partial file, and forgets its key so that no later round looks for it again. */
async function removeUnstored(app: FastifyInstance, uploadId: number, key: string): Promise<void> {
  await removePartialFile(app.storage, key);
  await app.db.query(
    'UPDATE upload_files SET storage_key = NULL WHERE upload_id = $1 AND storage_key = $2 AND stored_at IS NULL AND processed_at IS NOT NULL',
    [uploadId, key],
  );
}

/** Ends the upload unless another instance (or a completion) has just decided its fate; true when this did. */
function abandon(
  app: FastifyInstance,
  { upload_id: uploadId, user_id: userId, storage_key: key }: Expired,
): Promise<boolean> {
  const reason = key ? STALLED_ERROR : ABANDONED_ERROR;
  return app.db.transaction(async (tx) => {
    const rows = await tx.query(
      `UPDATE upload_files SET processed_at = now(), error = $2
        WHERE upload_id = (SELECT upload_id FROM upload_files WHERE upload_id = $1 AND stored_at IS NULL AND processed_at IS NULL FOR UPDATE SKIP LOCKED)
        RETURNING upload_id`,
      [uploadId, reason],
    );
    if (rows.length === 0) return false;
    const actor = await uploader(tx, userId, null);
    await setUploadState(
      app,
      tx,
      uploadId,
      { status: 'abandoned' },
      { actor, action: 'import', details: { status: 'abandoned', error: reason } },
    );
    const uploads = entityResource(MODULE.dataUploadLogs);
    const fileName = String(
      (uploads && (await new ResourceTable(uploads).get(tx, uploadId, null))?.file_name) ?? `upload ${uploadId}`,
    );
    if (userId !== null)
      await notify(
        tx,
        userId,
        `Upload <b>${escapeHtml(fileName)}</b> was abandoned: its file did not arrive in full before the upload link expired. Please upload it again.`,
        recordLink(MODULE.dataUploadLogs, 'view_detail', uploadId),
      );
    return true;
  });
}

/**
 * Removes what arrived of a file: through the resumable store first, which ends what it started (a bucket's multipart
 * upload is aborted, or its parts would be kept), then whatever the storage keeps under the key.
 */
async function removePartialFile(storage: FileStorage, key: string): Promise<void> {
  try {
    await storage.resumableStore().remove(key);
  } catch (error) {
    // tus's FILE_NOT_FOUND (404) and FILE_NO_LONGER_EXISTS (410): nothing arrived, or it is already gone.
    const status = (error as { status_code?: unknown } | null)?.status_code;
    if (status !== 404 && status !== 410) throw error;
  }
  await storage.remove(key);
}

/** Ends abandoned uploads at start and every few minutes, in every instance (the upload's row lets one end each). */
export function abandonedUploadsCleanup(app: FastifyInstance, log: FastifyBaseLogger): PeriodicJob {
  return new PeriodicJob(
    'abandoned uploads cleanup',
    async () => {
      const ended = await endAbandonedUploads(app);
      if (ended.length > 0)
        log.info(
          { ended: ended.length },
          'uploads whose file did not arrive before their link expired were ended as abandoned and their partial files removed',
        );
    },
    ROUND_MILLISECONDS,
    log,
  );
}
