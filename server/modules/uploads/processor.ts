import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ServerConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { FileStorage } from './storage.ts';
import { BadTradeFile } from './tradeFile.ts';
import { buildSearchIndexes, dropUnpublishedTable, ensureMonth, monthTable } from './tradePartitions.ts';
import { UNVERIFIABLE_FILE_ERROR } from './importErrors.ts';
import { loadJob, takeUp, type ImportServices, type MonthUpload } from './importJob.ts';
import { loadStoredFile } from './loadStoredFile.ts';
import { concludeImport } from './concludeImport.ts';
import { endUnpublishedImport } from './endUnpublishedImport.ts';

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
  /** Search indexes are built beside the imports, not between them: a month's index takes longer than its load. */
  private indexing: Promise<void> = Promise.resolve();
  private readonly queued = new Set<number>();
  private retries: NodeJS.Timeout | null = null;
  private stopping = false;
  private readonly publishedListeners = new Set<(uploadId: number) => void>();
  private readonly services: ImportServices;

  constructor(
    private readonly app: FastifyInstance,
    private readonly db: Database,
    storage: FileStorage,
    private readonly log: FastifyBaseLogger,
    private readonly settings: Pick<ServerConfig, 'uploadRetrySeconds' | 'uploadLeaseSeconds'>,
  ) {
    this.services = { app, db, storage, log };
  }

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

  /** Resolves when every queued upload has been processed and the search indexes asked for are built (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.all([this.queue, this.indexing]);
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
    return this.idle();
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
    const attempt = await takeUp(this.db, uploadId);
    if (attempt === null) return;
    const job = await loadJob(this.db, uploadId);
    if (!job) return;
    try {
      if (job.storedSha256 === null) throw new BadTradeFile(UNVERIFIABLE_FILE_ERROR);
      if (!monthTable(job.period))
        throw new BadTradeFile(`The upload's period "${job.period ?? ''}" is not a month (YYYY-MM).`);
      if (await this.importFile({ ...job, period: job.period! })) this.published(uploadId);
    } catch (error) {
      await endUnpublishedImport(this.services, job, attempt, error);
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
      const preloaded = oneTransaction ? null : await loadStoredFile(this.services, this.db, job);
      await this.db.transaction(
        async (tx) => {
          const [claimed] = await tx.query(
            'SELECT upload_id FROM upload_files WHERE upload_id = $1 AND processed_at IS NULL FOR UPDATE SKIP LOCKED',
            [job.uploadId],
          );
          if (!claimed) return;
          published = await concludeImport(
            this.app,
            tx,
            job,
            preloaded ?? (await loadStoredFile(this.services, tx, job)),
          );
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

  /**
   * Builds the search indexes published uploads lack, one build at a time, while imports go on: an import queued
   * meanwhile does not wait for it (on PostgreSQL the build is CONCURRENTLY; PGlite, one session, runs it between
   * the import's transactions).
   */
  private enqueueSearchIndexes(): void {
    this.indexing = this.indexing
      .then(async () => {
        if (!this.stopping) await buildSearchIndexes(this.db);
      })
      .catch((error: unknown) =>
        this.log.error({ err: error }, 'building the search index of published uploads failed'),
      );
  }
}
