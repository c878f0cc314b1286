import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ServerConfig } from '../../config.ts';
import type { Database, Queryable, Transaction } from '../../db/database.ts';
import { escapeHtml } from '../../http/html.ts';
import { notify, recordLink } from '../notifications/notify.ts';
import { MODULE, entityResource } from '../../registry.ts';
import { ResourceTable } from '../resources/sql.ts';
import { configuredColumns } from './columns.ts';
import { isMissingFile, type FileStorage } from './storage.ts';
import { loadRows, storeRejections, type LoadedRows } from './importRows.ts';
import { uploader } from './audit.ts';
import { setUploadState } from './uploadState.ts';
import { publishUpload, reviewImport } from './review.ts';
import { tellOfReview } from './reviewNotices.ts';
import {
  ImportCancelled,
  PROGRESS_INTERVAL_MS,
  cancelRequested,
  startProgress,
  writeProgress,
} from './importProgress.ts';
import { BadTradeFile, CHANGED_FILE_ERROR } from './tradeFile.ts';
import {
  buildSearchIndexes,
  createUploadTable,
  dropUnpublishedTable,
  ensureMonth,
  indexUploadTable,
  monthTable,
} from './tradePartitions.ts';

export { CHANGED_FILE_ERROR };

/** The upload a file's records belong to. */
interface TradeUpload {
  uploadId: number;
  countryId: number | null;
  tradeDirection: string;
  period: string | null;
}

interface UploadJob extends TradeUpload {
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
interface MonthUpload extends UploadJob {
  period: string;
}

/** What the log says of an upload whose accepted file is no longer in storage. */
export const MISSING_FILE_ERROR =
  'The stored file is gone, so this upload could not be processed. Upload the file again.';
/** What it says of an upload accepted before the server recorded the hash of the checked bytes (migration 006). */
export const UNVERIFIABLE_FILE_ERROR =
  'This upload was accepted before the server recorded what it checked, so its stored file cannot be verified. Upload the file again.';
/** An import taken up this many times without ending (it stops every instance that tries it) fails instead. */
export const MAX_IMPORT_ATTEMPTS = 5;
/** What it says of an upload whose import never ended, whichever instance took it up. */
export const GAVE_UP_ERROR = `This upload could not be processed (it was tried ${MAX_IMPORT_ATTEMPTS} times). Upload the file again; if it fails again, the server log says why.`;

/** What it says of an upload whose import a user cancelled. */
export const CANCELLED_ERROR = 'The import was cancelled; nothing of the file was imported.';

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
  private readonly publishedListeners = new Set<(uploadId: number) => void>();

  constructor(
    private readonly app: FastifyInstance,
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

  /** Calls `listener` with each upload this instance publishes, once its records are committed; returns the unsubscribe. */
  onPublished(listener: (uploadId: number) => void): () => void {
    this.publishedListeners.add(listener);
    return () => this.publishedListeners.delete(listener);
  }

  /** Tells the listeners of an upload published (by its import or a reviewer) once committed, and indexes it for search. */
  published(uploadId: number): void {
    for (const listener of this.publishedListeners) listener(uploadId);
    this.enqueueSearchIndexes();
  }

  /** Resolves when every queued upload has been processed (tests, shutdown). */
  idle(): Promise<void> {
    return this.queue;
  }

  /** Takes up the waiting uploads now, then every `uploadRetrySeconds` until `stop`. */
  async start(): Promise<void> {
    await this.recover();
    this.enqueueSearchIndexes();
    this.retries = setInterval(() => {
      this.recover().catch((error: unknown) =>
        this.log.error({ err: error }, 'looking for uploads waiting for processing failed'),
      );
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
      tx.query<{ upload_id: number }>(
        'SELECT upload_id FROM upload_files WHERE stored_at IS NOT NULL AND processed_at IS NULL ORDER BY stored_at, upload_id FOR UPDATE SKIP LOCKED',
      ),
    );
    const taken = waiting.filter(({ upload_id: uploadId }) => !this.queued.has(uploadId));
    for (const { upload_id: uploadId } of taken) this.enqueue(uploadId);
    if (taken.length)
      this.log.info({ uploads: taken.map((row) => row.upload_id) }, 'uploads waiting for processing are queued');
    return taken.length;
  }

  private async process(uploadId: number): Promise<void> {
    const attempt = await this.takeUp(uploadId);
    if (attempt === null) return;
    const job = await loadJob(this.db, uploadId);
    if (!job) return;
    try {
      if (job.storedSha256 === null) throw new BadTradeFile(UNVERIFIABLE_FILE_ERROR);
      if (!monthTable(job.period))
        throw new BadTradeFile(`The upload's period "${job.period ?? ''}" is not a month (YYYY-MM).`);
      if (await this.importFile({ ...job, period: job.period! })) this.published(uploadId);
    } catch (error) {
      await this.end(job, attempt, error);
    }
  }

  /**
   * Loads the file into its upload's own table, then publishes it or holds it for review (conclude); answers whether
   * it published. On PostgreSQL all of it is the one transaction that holds the upload's claim, so a failure or a stop
   * leaves nothing. PGlite is one session that every request waits
   * for while it is in a transaction: there the table is loaded statement by statement (other requests run between
   * them; no one reads the table until it is attached), and only the comparison and publication are a transaction.
   */
  private async importFile(job: MonthUpload): Promise<boolean> {
    const oneTransaction = this.db.kind === 'postgres';
    let ended = false;
    let published = false;
    // Before the claim's transaction, which would otherwise sit idle while another connection waits for the month's
    // DDL (and its lease end it). The DDL has a lease of its own: a process frozen mid-way cannot hold trade_records.
    await ensureMonth(this.db, job.period, this.settings.uploadLeaseSeconds);
    try {
      const preloaded = oneTransaction ? null : await this.load(this.db, job);
      await this.db.transaction(
        async (tx) => {
          const [claimed] = await tx.query(
            'SELECT upload_id FROM upload_files WHERE upload_id = $1 AND processed_at IS NULL FOR UPDATE SKIP LOCKED',
            [job.uploadId],
          );
          if (!claimed) return;
          published = await this.conclude(tx, job, preloaded ?? (await this.load(tx, job)));
          ended = true;
        },
        { leaseSeconds: this.settings.uploadLeaseSeconds },
      );
    } finally {
      // An upload held for review keeps its loaded table, unattached, for its reviewer.
      if (!oneTransaction && !ended) await dropUnpublishedTable(this.db, job.uploadId);
    }
    return published;
  }

  /** Streams the stored file into the upload's table (created by `loader`), checking it as it goes, and indexes it. */
  private async load(loader: Transaction, job: MonthUpload): Promise<LoadedRows> {
    if (await startProgress(this.db, job.uploadId, job.storedSize)) throw new ImportCancelled();
    const columns = await configuredColumns(loader, job.tradeDirection);
    const table = await createUploadTable(loader, job);
    let source;
    try {
      source = await this.storage.read(job.storageKey);
    } catch (error) {
      if (isMissingFile(error)) throw new BadTradeFile(MISSING_FILE_ERROR);
      throw error;
    }
    const read = { bytesRead: 0, compressed: false };
    const summary = { total: 0, accepted: 0, rejected: 0 };
    const progress = () => ({
      bytesRead: read.bytesRead,
      rowsRead: summary.total,
      rowsAccepted: summary.accepted,
      rowsRejected: summary.rejected,
    });
    // On a timer, not with the rows: a storage that stalls shows as progress that stands still, and a cancel still
    // stops it (the file's stream ends with the cancel, and the import with it).
    const ticker = setInterval(() => {
      writeProgress(this.db, job.uploadId, progress())
        .then((cancelled) => {
          if (cancelled) source.destroy(new ImportCancelled());
        })
        .catch((error: unknown) =>
          this.log.warn({ err: error, upload: job.uploadId }, 'writing import progress failed'),
        );
    }, PROGRESS_INTERVAL_MS);
    try {
      const loaded = await loadRows(
        loader,
        table,
        source,
        { columns, expected: { sha256: job.storedSha256!, size: job.storedSize } },
        read,
        summary,
      );
      await indexUploadTable(loader, job.uploadId);
      if (await writeProgress(this.db, job.uploadId, progress())) throw new ImportCancelled();
      return loaded;
    } catch (error) {
      if (error instanceof BadTradeFile && error.message === CHANGED_FILE_ERROR) {
        this.log.warn(
          { upload: job.uploadId, key: job.storageKey, checked: job.storedSha256 },
          'stored upload file changed after it was checked; not imported',
        );
      }
      throw error;
    } finally {
      clearInterval(ticker);
      source.destroy();
    }
  }

  /**
   * Ends the import: compares the loaded records with the published month, then publishes them (attaching them and
   * taking out what they replace) or holds them, unattached, for a reviewer. Answers whether it published.
   */
  private async conclude(tx: Queryable, job: MonthUpload, { summary, rejections }: LoadedRows): Promise<boolean> {
    if (await cancelRequested(tx, job.uploadId)) throw new ImportCancelled();
    await storeRejections(tx, job.uploadId, rejections);
    const counts = { rows_total: summary.total, rows_accepted: summary.accepted, rows_rejected: summary.rejected };
    const review = await reviewImport(tx, job, summary);
    const actor = await uploader(tx, job.userId, null);
    const rows = `${summary.accepted} row(s) accepted, ${summary.rejected} rejected`;
    const notice = { uploadId: job.uploadId, fileName: job.fileName, uploaderId: job.userId };
    if (review.outcome === 'needs_review') {
      await setUploadState(
        this.app,
        tx,
        job.uploadId,
        { status: 'needs_review', ...counts },
        { actor, action: 'import', details: { status: 'needs_review', ...counts, flagged: review.flagged } },
      );
      const checks = review.checks
        .filter((check) => check.flagged)
        .map((check) => check.label.toLowerCase())
        .join(', ');
      await this.finish(tx, job, null, null);
      await tellOfReview(this.app, tx, {
        ...notice,
        news: 'needs_review',
        detail: `${checks} beyond the thresholds; ${rows}.`,
        reviewers: true,
      });
      return false;
    }
    const replacing = await publishUpload(this.app, tx, job, { actor, action: 'import', details: counts }, counts);
    const replacedText = replacing.length ? ` It replaces upload ${replacing.join(', ')}.` : '';
    await this.finish(tx, job, null, null);
    await tellOfReview(this.app, tx, {
      ...notice,
      news: 'published',
      detail: `${rows}.${replacedText}`,
      reviewers: false,
    });
    return true;
  }

  /** Ends an import that did not publish: cancelled, failed for its file, or left waiting to be taken up again. */
  private async end(job: UploadJob, attempt: number, error: unknown): Promise<void> {
    const uploadId = job.uploadId;
    const reason = error instanceof Error ? error.message : String(error);
    const cancelled = error instanceof ImportCancelled;
    const final = cancelled || error instanceof BadTradeFile || attempt >= MAX_IMPORT_ATTEMPTS;
    if (!final) {
      // The database or the storage failed, not the file: nothing of the import stays, and it is taken up again.
      this.log.warn(
        { err: error, upload: uploadId, attempt },
        `upload processing stopped (${reason}); it will be taken up again`,
      );
      return;
    }
    const shown = cancelled ? CANCELLED_ERROR : error instanceof BadTradeFile ? reason : GAVE_UP_ERROR;
    if (cancelled) this.log.info({ upload: uploadId }, 'upload import cancelled');
    else this.log.error({ err: error, upload: uploadId, attempt }, `upload processing failed: ${reason}`);
    await this.db.transaction(async (tx) => {
      const [open] = await tx.query(
        'SELECT upload_id FROM upload_files WHERE upload_id = $1 AND processed_at IS NULL FOR UPDATE SKIP LOCKED',
        [uploadId],
      );
      if (!open) return;
      const status = cancelled ? 'cancelled' : 'failed';
      await setUploadState(
        this.app,
        tx,
        uploadId,
        { status },
        { actor: await uploader(tx, job.userId, null), action: 'import', details: { status, error: shown } },
      );
      await this.finish(
        tx,
        job,
        shown,
        cancelled
          ? `Upload <b>${escapeHtml(job.fileName)}</b> was cancelled.`
          : `Upload <b>${escapeHtml(job.fileName)}</b> failed. Please check the file and upload it again.`,
      );
    });
  }

  /** Builds, after the imports queued before it, the search indexes published uploads lack. */
  private enqueueSearchIndexes(): void {
    this.queue = this.queue
      .then(async () => {
        if (!this.stopping) await buildSearchIndexes(this.db);
      })
      .catch((error: unknown) =>
        this.log.error({ err: error }, 'building the search index of published uploads failed'),
      );
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

  /** Ends the upload's import; `message` tells its uploader in the console (an imported one is told by tellOfReview). */
  private async finish(tx: Queryable, job: UploadJob, error: string | null, message: string | null): Promise<void> {
    await tx.query('UPDATE upload_files SET processed_at = now(), error = $2 WHERE upload_id = $1', [
      job.uploadId,
      error,
    ]);
    if (job.userId !== null && message !== null)
      await notify(tx, job.userId, message, recordLink(MODULE.dataUploadLogs, 'view_detail', job.uploadId));
  }
}

/** An accepted upload still waiting for processing, with what the import needs, or null. */
async function loadJob(db: Queryable, uploadId: number): Promise<UploadJob | null> {
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
