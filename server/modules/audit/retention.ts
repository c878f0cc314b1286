import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import { HOUR_MILLISECONDS, PeriodicJob } from '../../jobs/periodicJob.ts';
import { NO_USER, recordAudit } from './record.ts';

/** Any constant not used by another advisory lock: one instance at a time purges the trash. */
export const TRASH_PURGE_LOCK = 7_512_004;

/**
 * Deletes for good what has been in the trash longer than `days` (TRASH_RETENTION_DAYS; 0 keeps it forever), with
 * one `purge` entry per record, in one transaction. When another instance is purging, this one leaves it to it.
 */
export function purgeExpiredTrash(db: Database, days: number): Promise<number> {
  if (days === 0) return Promise.resolve(0);
  return db.transaction(async (tx) => {
    const [claim] = await tx.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [
      TRASH_PURGE_LOCK,
    ]);
    if (!claim?.locked) return 0;
    const purged = await tx.query<{ module: string; record_id: number }>(
      'DELETE FROM trash WHERE deleted_at < now() - make_interval(days => $1) RETURNING module, record_id',
      [days],
    );
    await recordAudit(
      tx,
      NO_USER,
      purged.map((row) => ({
        module: row.module,
        recordId: Number(row.record_id),
        action: 'purge' as const,
        details: { reason: 'retention' },
      })),
    );
    return purged.length;
  });
}

/** Runs the purge at start and then every hour, in every instance (the lock lets one do it); a stop waits for the round in flight. */
export class TrashRetention {
  private readonly job: PeriodicJob;

  constructor(
    db: Database,
    log: FastifyBaseLogger,
    private readonly days: number,
  ) {
    this.job = new PeriodicJob(
      'trash retention purge',
      async () => {
        const purged = await purgeExpiredTrash(db, days);
        if (purged > 0)
          log.info({ purged, retentionDays: days }, 'records older than the trash retention deleted for good');
      },
      HOUR_MILLISECONDS,
      log,
    );
  }

  start(): void {
    if (this.days > 0) this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }
}
