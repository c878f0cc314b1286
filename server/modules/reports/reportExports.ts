// Background exports of the uploaded-data report (migration 019): claimed in the database by whichever instance gets
// there first, written as numbered part files to the storage, served to their requester only, removed after a while.
import type { FastifyBaseLogger } from 'fastify';
import type { ReportExportConfig } from '../../config.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { csvLine } from '../../http/csv.ts';
import { HttpError } from '../../http/errors.ts';
import { HOUR_MILLISECONDS, PeriodicJob } from '../../jobs/periodicJob.ts';
import type { FileStorage } from '../uploads/storage.ts';
import { TRADE_RECORD_COLUMNS } from '../uploads/tradeColumns.ts';
import { decodeCursor, encodeCursor, tradeReportBatches, type TradeFilter } from './tradeReport.ts';

/** Past this many records (as estimated), the console asks for a background export instead of a download. */
export const EXPORT_IN_BACKGROUND_ROWS = 100_000;
/** A claimed export not moved on for this long is taken as abandoned (its instance stopped) and taken up again. */
const LEASE_SECONDS = 60;
/** How often an instance looks for exports waiting with no instance at work on them. */
const POLL_MILLISECONDS = 30_000;

export type ExportStatus = 'queued' | 'running' | 'completed' | 'failed';

export type ReportExport = {
  id: number;
  status: ExportStatus;
  rows_estimated: number;
  rows_written: number;
  error: string | null;
  created_at: string;
  finished_at: string | null;
};

type ClaimedExport = ReportExport & {
  user_id: number;
  filter: TradeFilter;
  parts: number;
  resume_after: string | null;
};

const SHOWN = 'id, status, rows_estimated, rows_written, error, created_at, finished_at';

/** The CSV of every record a report's filter matches, with its header line. */
export function tradeCsvLines(rows: ReadonlyArray<Record<string, unknown>>): string {
  return rows.map((row) => csvLine(TRADE_RECORD_COLUMNS.map((name) => row[name]))).join('');
}

export const TRADE_CSV_HEADER = csvLine(TRADE_RECORD_COLUMNS);

export async function requestExport(
  db: Queryable,
  userId: number,
  filter: TradeFilter,
  rowsEstimated: number,
): Promise<ReportExport> {
  const [created] = await db.query<ReportExport>(
    `INSERT INTO report_exports (user_id, filter, rows_estimated) VALUES ($1, $2, $3) RETURNING ${SHOWN}`,
    [userId, JSON.stringify(filter), rowsEstimated],
  );
  return created!;
}

/** The requester's export; null for anyone else's, as for one that does not exist. */
export async function exportOf(
  db: Queryable,
  id: number,
  userId: number,
): Promise<(ReportExport & { parts: number }) | null> {
  const [found] = await db.query<ReportExport & { parts: number }>(
    `SELECT ${SHOWN}, parts FROM report_exports WHERE id = $1 AND user_id = $2`,
    [id, userId],
  );
  return found ?? null;
}

/** A finished export's bytes, part after part, read as they are sent. */
export async function* exportFile(storage: FileStorage, job: { id: number; parts: number }): AsyncGenerator<Buffer> {
  for (let part = 1; part <= job.parts; part += 1) {
    for await (const chunk of await storage.read(partKey(job.id, part))) yield chunk as Buffer;
  }
}

function partKey(exportId: number, part: number): string {
  return `report-exports/${exportId}/part-${String(part).padStart(6, '0')}.csv`;
}

/** Runs the waiting exports (as soon as one is asked for, and regularly for those an instance left) and removes old ones. */
export class ReportExports {
  private readonly poll: PeriodicJob;
  private readonly cleanup: PeriodicJob;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly storage: FileStorage,
    private readonly log: FastifyBaseLogger,
    private readonly config: ReportExportConfig,
  ) {
    this.poll = new PeriodicJob('report exports', () => this.runWaiting(), POLL_MILLISECONDS, log);
    this.cleanup = new PeriodicJob('report exports cleanup', () => this.removeOld(), HOUR_MILLISECONDS, log);
  }

  start(): void {
    this.stopped = false;
    this.poll.start();
    this.cleanup.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.poll.stop();
    await this.cleanup.stop();
    await this.running;
  }

  /** Starts on the waiting exports now, unless this instance is already at them. */
  kick(): void {
    if (this.stopped) return;
    void this.runWaiting().catch((error: unknown) => this.log.error({ err: error }, 'report exports failed'));
  }

  /** Removes the exports finished more than keptHours ago, their files first. */
  async removeOld(): Promise<number> {
    const old = await this.db.query<{ id: number; parts: number }>(
      `SELECT id, parts FROM report_exports WHERE finished_at < now() - make_interval(hours => $1) ORDER BY id LIMIT 1000`,
      [this.config.keptHours],
    );
    for (const job of old) {
      for (let part = 1; part <= job.parts; part += 1) await this.storage.remove(partKey(job.id, part));
      await this.db.query('DELETE FROM report_exports WHERE id = $1', [job.id]);
    }
    if (old.length > 0)
      this.log.info({ removed: old.length, keptHours: this.config.keptHours }, 'old report exports removed');
    return old.length;
  }

  private runWaiting(): Promise<void> {
    this.running ??= (async () => {
      try {
        for (let job = await this.claim(); job && !this.stopped; job = await this.claim()) await this.run(job);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  private async claim(): Promise<ClaimedExport | null> {
    const [job] = await this.db.query<ClaimedExport>(
      `UPDATE report_exports SET status = 'running', claimed_until = now() + make_interval(secs => $1)
        WHERE id = (SELECT id FROM report_exports WHERE status = 'queued' OR (status = 'running' AND claimed_until < now())
                     ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING ${SHOWN}, user_id, filter, parts, resume_after`,
      [LEASE_SECONDS],
    );
    return job ?? null;
  }

  /** Writes the export's parts from where it stands; each part recorded with the position after it, under the lease. */
  private async run(job: ClaimedExport): Promise<void> {
    let { parts, rows_written: written } = job;
    let pending: string[] = parts === 0 ? [TRADE_CSV_HEADER] : [];
    let pendingRows = 0;
    const from = job.resume_after ? (decodeCursor(job.resume_after) ?? undefined) : undefined;
    const writePart = async (resumeAfter: string | null) => {
      const key = partKey(job.id, parts + 1);
      // A part written by an instance that stopped before recording it is written again.
      await this.storage.remove(key);
      await this.storage.put(key, Buffer.from(pending.join('')));
      const [held] = await this.db.query(
        `UPDATE report_exports SET parts = $2, rows_written = $3, resume_after = $4, claimed_until = now() + make_interval(secs => $5)
          WHERE id = $1 AND status = 'running' RETURNING id`,
        [job.id, parts + 1, written + pendingRows, resumeAfter, LEASE_SECONDS],
      );
      if (!held) throw new Error('the export was removed while it was written');
      parts += 1;
      written += pendingRows;
      pending = [];
      pendingRows = 0;
    };
    try {
      for await (const { rows, last } of tradeReportBatches(this.db, job.filter, from, this.config.batchRows)) {
        if (this.stopped) {
          await this.db.query('UPDATE report_exports SET claimed_until = now() WHERE id = $1', [job.id]);
          return;
        }
        pending.push(tradeCsvLines(rows));
        pendingRows += rows.length;
        if (pendingRows >= this.config.partRows) await writePart(encodeCursor(last));
      }
      if (pendingRows > 0 || parts === 0) await writePart(null);
      await this.db.query(
        `UPDATE report_exports SET status = 'completed', finished_at = now(), claimed_until = NULL WHERE id = $1`,
        [job.id],
      );
    } catch (error) {
      this.log.error({ err: error, export: job.id }, 'report export failed');
      // A search stopped for taking too long says so in words the requester can act on.
      const message =
        error instanceof HttpError && error.errors
          ? Object.values(error.errors).join(' ')
          : error instanceof Error
            ? error.message
            : String(error);
      await this.db.query(
        `UPDATE report_exports SET status = 'failed', error = $2, finished_at = now(), claimed_until = NULL WHERE id = $1`,
        [job.id, message],
      );
    }
  }
}
