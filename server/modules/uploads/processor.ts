import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../../config.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { escapeHtml } from '../../http/html.ts';
import { notify } from '../notifications/notify.ts';
import { MODULE, entityResource, field, quoted } from '../../registry.ts';
import { ResourceTable } from '../resources/sql.ts';
import { configuredColumns } from './columns.ts';
import { contentHash, isMissingFile, type FileStorage } from './storage.ts';
import { importRows } from './importRows.ts';
import { recordImportOutcome } from './audit.ts';
import type { TradeUpload } from './tradeRecords.ts';

interface UploadJob extends TradeUpload {
  userId: number | null;
  storageKey: string;
  /** The SHA-256 of the bytes checked when the file was accepted; null for an upload accepted before it was recorded. */
  storedSha256: string | null;
  fileName: string;
}

/** What the log says of an upload whose accepted file is no longer in storage. */
export const MISSING_FILE_ERROR = 'The stored file is gone, so this upload could not be processed. Upload the file again.';
/** What it says of an upload whose stored file no longer has the bytes that were checked when it was accepted. */
export const CHANGED_FILE_ERROR = 'The stored file is not the one that was checked (its content changed after it was accepted). Upload the file again.';
/** What it says of an upload accepted before the server recorded the hash of the checked bytes (migration 006). */
export const UNVERIFIABLE_FILE_ERROR = 'This upload was accepted before the server recorded what it checked, so its stored file cannot be verified. Upload the file again.';
/** An import taken up this many times without ending (it stops every instance that tries it) fails instead. */
export const MAX_IMPORT_ATTEMPTS = 5;
/** What it says of an upload whose import never ended, whichever instance took it up. */
export const GAVE_UP_ERROR = `This upload could not be processed (it was tried ${MAX_IMPORT_ATTEMPTS} times). Upload the file again; if it fails again, the server log says why.`;

/** A problem of the upload's stored file itself: the upload fails at once, since trying again cannot help. */
class StoredFileProblem extends Error {}

/**
 * Parses stored uploads into trade records after the file has been accepted, one at a time per instance, and ends
 * each with a notification for the uploader. The upload's state lives in the database: an upload waits for
 * processing while `upload_files` has `stored_at` and no `processed_at`, and any instance may take it up.
 *
 * An import is one transaction that holds its upload's row lock (`FOR UPDATE SKIP LOCKED`) to its commit, which sets
 * `processed_at`: that lock is the claim, so one instance imports an upload and every other one passes it by. The
 * claim lasts as long as the importing instance's database session: a process that dies loses it at once, one that
 * freezes or loses the database mid-import after `uploadLeaseSeconds` (the database ends the session), and the
 * rolled-back upload waits again. Every instance looks for waiting uploads that no one holds at start and every
 * `uploadRetrySeconds`, so nothing accepted is left unprocessed while any instance runs.
 */
export class UploadProcessor {
  private queue: Promise<void> = Promise.resolve();
  private readonly queued = new Set<number>();
  private retries: NodeJS.Timeout | null = null;
  private stopping = false;

  constructor(
    private readonly db: Database,
    private readonly storage: FileStorage,
    private readonly log: FastifyBaseLogger,
    private readonly settings: Pick<ServerConfig, 'uploadRetrySeconds' | 'uploadLeaseSeconds'>,
  ) {}

  enqueue(uploadId: number): void {
    if (this.stopping || this.queued.has(uploadId)) return;
    this.queued.add(uploadId);
    this.queue = this.queue
      .then(async () => {
        this.queued.delete(uploadId);
        if (!this.stopping) await this.process(uploadId);
      })
      .catch((error: unknown) => this.log.error({ err: error, upload: uploadId }, 'upload processing failed'));
  }

  /** Resolves when every queued upload has been processed (tests, shutdown). */
  idle(): Promise<void> {
    return this.queue;
  }

  /** Takes up the waiting uploads now, then every `uploadRetrySeconds` until `stop`. */
  async start(): Promise<void> {
    await this.recover();
    this.retries = setInterval(() => {
      this.recover().catch((error: unknown) => this.log.error({ err: error }, 'looking for uploads waiting for processing failed'));
    }, this.settings.uploadRetrySeconds * 1000);
    this.retries.unref();
  }

  /**
   * Takes no more work: queued uploads that have not started stay waiting in the database for any instance, and the
   * import in flight finishes (the caller bounds the wait: a stop cut short rolls the import back, which is safe).
   */
  stop(): Promise<void> {
    this.stopping = true;
    if (this.retries) clearInterval(this.retries);
    return this.queue;
  }

  /** Queues every accepted upload waiting for processing that no instance is importing (one whose import stopped). */
  async recover(): Promise<number> {
    const waiting = await this.db.transaction((tx) =>
      tx.query<{ upload_id: number }>('SELECT upload_id FROM upload_files WHERE stored_at IS NOT NULL AND processed_at IS NULL ORDER BY stored_at, upload_id FOR UPDATE SKIP LOCKED'),
    );
    const taken = waiting.filter(({ upload_id: uploadId }) => !this.queued.has(uploadId));
    for (const { upload_id: uploadId } of taken) this.enqueue(uploadId);
    if (taken.length) this.log.info({ uploads: taken.map((row) => row.upload_id) }, 'uploads waiting for processing are queued');
    return taken.length;
  }

  private async process(uploadId: number): Promise<void> {
    const attempt = await this.takeUp(uploadId);
    if (attempt === null) return;
    const job = await loadJob(this.db, uploadId);
    if (!job) return;
    try {
      const text = (await this.checkedFile(job)).toString('utf8');
      const columns = await configuredColumns(this.db, job.tradeDirection);
      await this.db.transaction(
        async (tx) => {
          const [claimed] = await tx.query('SELECT upload_id FROM upload_files WHERE upload_id = $1 AND processed_at IS NULL FOR UPDATE SKIP LOCKED', [uploadId]);
          if (!claimed) return;
          const summary = await importRows(tx, job, text, columns);
          await setUploadState(tx, uploadId, { status: 'completed', rows_total: summary.total, rows_accepted: summary.accepted, rows_rejected: summary.rejected });
          await recordImportOutcome(tx, uploadId, job.userId, { status: 'completed', rows_total: summary.total, rows_accepted: summary.accepted, rows_rejected: summary.rejected });
          await this.finish(tx, job, null, `Upload <b>${escapeHtml(job.fileName)}</b> is processed: ${summary.accepted} row(s) accepted, ${summary.rejected} rejected.`);
        },
        { leaseSeconds: this.settings.uploadLeaseSeconds },
      );
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const final = error instanceof StoredFileProblem || attempt >= MAX_IMPORT_ATTEMPTS;
      if (!final) {
        // The database or the storage failed, not the file: nothing of the import stays, and it is taken up again.
        this.log.warn({ err: error, upload: uploadId, attempt }, `upload processing stopped (${reason}); it will be taken up again`);
        return;
      }
      this.log.error({ err: error, upload: uploadId, attempt }, `upload processing failed: ${reason}`);
      await this.db.transaction(async (tx) => {
        const [open] = await tx.query('SELECT upload_id FROM upload_files WHERE upload_id = $1 AND processed_at IS NULL FOR UPDATE SKIP LOCKED', [uploadId]);
        if (!open) return;
        await setUploadState(tx, uploadId, { status: 'failed' });
        await recordImportOutcome(tx, uploadId, job.userId, { status: 'failed', error: error instanceof StoredFileProblem ? reason : GAVE_UP_ERROR });
        await this.finish(tx, job, error instanceof StoredFileProblem ? reason : GAVE_UP_ERROR, `Upload <b>${escapeHtml(job.fileName)}</b> failed. Please check the file and upload it again.`);
      });
    }
  }

  /** Counts an attempt on the upload if it still waits and no instance holds it; its attempt number, or null. */
  private async takeUp(uploadId: number): Promise<number | null> {
    const [taken] = await this.db.query<{ import_attempts: number }>(
      `UPDATE upload_files SET import_attempts = import_attempts + 1
        WHERE upload_id = (SELECT upload_id FROM upload_files WHERE upload_id = $1 AND stored_at IS NOT NULL AND processed_at IS NULL FOR UPDATE SKIP LOCKED)
       RETURNING import_attempts`,
      [uploadId],
    );
    return taken?.import_attempts ?? null;
  }

  /** The stored file, if its bytes are the ones checked when it was accepted. */
  private async checkedFile(job: UploadJob): Promise<Buffer> {
    if (job.storedSha256 === null) throw new StoredFileProblem(UNVERIFIABLE_FILE_ERROR);
    let data: Buffer;
    try {
      data = await this.storage.get(job.storageKey);
    } catch (error) {
      if (isMissingFile(error)) throw new StoredFileProblem(MISSING_FILE_ERROR);
      throw error;
    }
    // The bytes imported are the bytes that were checked, whatever the storage: a presigned POST stays usable until
    // it expires, so a bucket object may have been replaced (same size or not) after completion checked it.
    const found = contentHash(data);
    if (found !== job.storedSha256) {
      this.log.warn({ upload: job.uploadId, key: job.storageKey, checked: job.storedSha256, found }, 'stored upload file changed after it was checked; not imported');
      throw new StoredFileProblem(CHANGED_FILE_ERROR);
    }
    return data;
  }

  private async finish(tx: Queryable, job: UploadJob, error: string | null, message: string): Promise<void> {
    await tx.query('UPDATE upload_files SET processed_at = now(), error = $2 WHERE upload_id = $1', [job.uploadId, error]);
    if (job.userId !== null) await notify(tx, job.userId, message);
  }
}

/** An accepted upload still waiting for processing, with what the import needs, or null. */
async function loadJob(db: Queryable, uploadId: number): Promise<UploadJob | null> {
  const uploads = entityResource(MODULE.dataUploadLogs);
  const [file] = await db.query<{ user_id: number | null; storage_key: string | null; stored_sha256: string | null }>(
    'SELECT user_id, storage_key, stored_sha256 FROM upload_files WHERE upload_id = $1 AND stored_at IS NOT NULL AND processed_at IS NULL',
    [uploadId],
  );
  if (!uploads || !file?.storage_key) return null;
  const upload = (await new ResourceTable(uploads).get(db, uploadId, null)) ?? {};
  return {
    uploadId,
    userId: file.user_id,
    storageKey: file.storage_key,
    storedSha256: file.stored_sha256,
    fileName: String(upload.file_name ?? file.storage_key),
    countryId: typeof upload.country_id === 'number' ? upload.country_id : null,
    tradeDirection: String(upload.trade_direction ?? ''),
    period: typeof upload.period === 'string' ? upload.period : null,
  };
}

/** Sets the columns of the DATA_UPLOAD_LOGS record that the manifest has. */
export async function setUploadState(db: Queryable, uploadId: number, values: Record<string, unknown>): Promise<void> {
  const uploads = entityResource(MODULE.dataUploadLogs);
  if (!uploads) return;
  const present = Object.entries(values).filter(([name]) => field(uploads.entity, name));
  const assignments = present.map(([name], index) => `${quoted(name)} = $${index + 2}`);
  await db.query(`UPDATE ${quoted(uploads.entity.table)} SET ${[...assignments, 'updated_at = now()'].join(', ')} WHERE id = $1`, [
    uploadId,
    ...present.map(([, value]) => value),
  ]);
}
