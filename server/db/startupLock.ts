import type { Database, Queryable } from './database.ts';

/**
 * Any constant, the same for every piece of start-up work (migrations, demo data, create-admin): instances starting
 * together on one database take turns, and each decides what is left to do only once it holds the lock.
 */
const STARTUP_LOCK = 7_270_001;

/** Runs `work` in one transaction holding the database-wide start-up lock until it commits or rolls back. */
export function startupTransaction<T>(db: Database, work: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [STARTUP_LOCK]);
    return work(tx);
  });
}
