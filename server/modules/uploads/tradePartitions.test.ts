import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import { openPostgres, quoteIdentifier } from '../../db/postgres.ts';
import { TEST_DATABASE_URL, postgresUnavailable } from '../../testing/testServer.ts';
import { until } from '../../testing/until.ts';
import { ensureMonth, MONTH_LOCK, monthTable } from './tradePartitions.ts';

const unavailable = await postgresUnavailable();

describe('month partitions made by several instances at once', () => {
  const opened: Database[] = [];
  let schema: string | null = null;
  afterEach(async () => {
    if (schema) await opened[0]?.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`);
    await Promise.all(opened.splice(0).map((db) => db.close()));
  });

  it.skipIf(unavailable)(
    'two instances that both found no month wait for the lock in turn: one makes it, the other finds it made',
    async () => {
      schema = `test_${randomBytes(6).toString('hex')}`;
      const first = await openPostgres(TEST_DATABASE_URL, schema, 1);
      opened.push(first);
      await migrate(first);
      const second = await openPostgres(TEST_DATABASE_URL, schema, 1);
      opened.push(second);
      const holder = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT pg_advisory_xact_lock($1)', [MONTH_LOCK]);
        const made = [ensureMonth(first, '2031-07'), ensureMonth(second, '2031-07')].map((making) =>
          making.then(
            (month) => ({ month }),
            (error: Error) => ({ error: error.message }),
          ),
        );
        // Both looked for the month, found none, and wait for the lock.
        await until(
          async () =>
            (
              await holder.query<{ n: number }>(
                `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted`,
                [MONTH_LOCK],
              )
            ).rows[0]!.n === 2,
          'both instances waiting for the month lock',
        );
        await holder.query('COMMIT');
        expect(await Promise.all(made)).toEqual([{ month: monthTable('2031-07') }, { month: monthTable('2031-07') }]);
      } finally {
        await holder.end();
      }
      const [attached] = await first.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_inherits WHERE inhrelid = $1::regclass`,
        [monthTable('2031-07')],
      );
      expect(attached?.n).toBe(1);
    },
  );
});
