import type pg from 'pg';
import { until } from './until.ts';

/** PostgreSQL's code for a transaction ended to break a deadlock, and how often a test's lock is tried. */
const DEADLOCK_DETECTED = '40P01';
const LOCK_ATTEMPTS = 5;

/** A lock a test holds; instances that need it wait (their connections are listed as `waiters`). */
export interface HeldLock {
  /** The instance of each of their connections waiting for it, one entry per connection. */
  waiters(): Promise<number[]>;
  /** The instance of the first connection found waiting for it, once one is. */
  firstWaiter(): Promise<number>;
  release(): Promise<void>;
}

/**
 * Takes a lock on a connection of the test's own, in a transaction left open (`lock` is the statement that takes
 * it), so that instances needing it wait, in the middle of their work, until `release`. `instanceOf` names the
 * instance of a waiting connection's `application_name` (-1 for none of the group's).
 */
export async function holdLock(
  database: {
    connect(): Promise<pg.Client>;
    sql<T extends pg.QueryResultRow>(text: string, params?: unknown[]): Promise<T[]>;
  },
  instanceOf: (applicationName: string) => number,
  lock: string,
  params: unknown[] = [],
): Promise<HeldLock> {
  const holder = await database.connect();
  // A table lock is taken partition by partition; an instance's background work (a month's index being built)
  // may take them in another order, and PostgreSQL then ends one of the two as a deadlock: the test's, which tries
  // again, as an application would.
  for (let attempt = 1; ; attempt += 1) {
    await holder.query('BEGIN');
    try {
      await holder.query(lock, params);
      break;
    } catch (error) {
      await holder.query('ROLLBACK');
      if ((error as { code?: string }).code !== DEADLOCK_DETECTED || attempt === LOCK_ATTEMPTS) throw error;
    }
  }
  const [{ pid }] = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows as [{ pid: number }];
  const waiters = async () => {
    const rows = await database.sql<{ application_name: string }>(
      'SELECT application_name FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))',
      [pid],
    );
    return rows.map((row) => instanceOf(row.application_name)).filter((index) => index >= 0);
  };
  return {
    waiters,
    async firstWaiter() {
      let found: number[] = [];
      await until(async () => (found = await waiters()).length > 0, 'an instance waiting for the lock');
      return found[0]!;
    },
    release: once(async () => {
      await holder.query('COMMIT').catch(() => undefined);
      await holder.end();
    }),
  };
}

function once(work: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | null = null;
  return () => (done ??= work());
}
