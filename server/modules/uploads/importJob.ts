import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database, Queryable } from '../../db/database.ts';
import { notify, recordLink } from '../notifications/store.ts';
import { MODULE, entityResource } from '../../registry.ts';
import { ResourceTable } from '../resources/sql.ts';
import type { FileStorage } from './storage.ts';
import { endProcessing } from './uploadFiles.ts';

/** What an import works with: the app (its hooks and notices), the database, the file storage and the log. */
export interface ImportServices {
  app: FastifyInstance;
  db: Database;
  storage: FileStorage;
  log: FastifyBaseLogger;
}

/** The upload a file's records belong to. */
interface TradeUpload {
  uploadId: number;
  countryId: number | null;
  tradeDirection: string;
  period: string | null;
}

export interface UploadJob extends TradeUpload {
  userId: number | null;
  storageKey: string;
  /** The SHA-256 of the bytes checked when the file was accepted; null for an upload accepted before it was recorded. */
  storedSha256: string | null;
  storedSize: number | null;
  fileName: string;
  /** The uploader confirmed that it replaces what is published for its country, trade direction and period. */
  replacesPublished: boolean;
}

/** An upload whose period is a month, as every import's is. */
export interface MonthUpload extends UploadJob {
  period: string;
}

/** Counts an attempt on the upload if it still waits and no instance holds it; its attempt number, or null. */
export async function takeUp(db: Queryable, uploadId: number): Promise<number | null> {
  const [taken] = await db.query<{ import_attempts: number }>(
    `UPDATE upload_files SET import_attempts = import_attempts + 1
        WHERE upload_id = (SELECT upload_id FROM upload_files WHERE upload_id = $1 AND stored_at IS NOT NULL AND processed_at IS NULL FOR UPDATE SKIP LOCKED)
       RETURNING import_attempts`,
    [uploadId],
  );
  return taken?.import_attempts ?? null;
}

/** An accepted upload still waiting for processing, with what the import needs, or null. */
export async function loadJob(db: Queryable, uploadId: number): Promise<UploadJob | null> {
  const uploads = entityResource(MODULE.dataUploadLogs);
  const [file] = await db.query<{
    user_id: number | null;
    storage_key: string | null;
    stored_sha256: string | null;
    stored_size: number | null;
    replaces_published: boolean;
  }>(
    'SELECT user_id, storage_key, stored_sha256, stored_size, replaces_published FROM upload_files WHERE upload_id = $1 AND stored_at IS NOT NULL AND processed_at IS NULL',
    [uploadId],
  );
  if (!uploads || !file?.storage_key) return null;
  const upload = (await new ResourceTable(uploads).get(db, uploadId, null)) ?? {};
  return {
    uploadId,
    userId: file.user_id,
    storageKey: file.storage_key,
    storedSha256: file.stored_sha256,
    storedSize: file.stored_size,
    replacesPublished: file.replaces_published,
    fileName: String(upload.file_name ?? file.storage_key),
    countryId: typeof upload.country_id === 'number' ? upload.country_id : null,
    tradeDirection: String(upload.trade_direction ?? ''),
    period: typeof upload.period === 'string' ? upload.period : null,
  };
}

/** Ends the upload's import; `message` tells its uploader in the console (an imported one is told by tellOfReview). */
export async function finishJob(
  tx: Queryable,
  job: UploadJob,
  error: string | null,
  message: string | null,
): Promise<void> {
  await endProcessing(tx, job.uploadId, error);
  if (job.userId !== null && message !== null)
    await notify(tx, job.userId, message, recordLink(MODULE.dataUploadLogs, 'view_detail', job.uploadId));
}
