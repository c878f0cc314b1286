import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUnavailable, TEST_DATABASE_URL } from '../testing/testServer.ts';
import type { Database } from './database.ts';
import { applicationName, openPostgres, quoteIdentifier } from './postgres.ts';

/** Transactions whose session ends under them: by their lease, or by the database. */
const unavailable = await postgresUnavailable();
if (unavailable)
  console.warn(`PostgreSQL transaction tests SKIPPED: ${TEST_DATABASE_URL} is unreachable (${unavailable}).`);

describe('PostgreSQL transactions that lose their session', () => {
  const schema = `lease_${randomBytes(6).toString('hex')}`;
  let db: Database;
  let other: pg.Client;

  beforeAll(async () => {
    if (unavailable) return;
    db = await openPostgres(TEST_DATABASE_URL, schema, 2);
    await db.exec('CREATE TABLE claims (id int PRIMARY KEY, taken_by text)');
    other = new pg.Client({
      connectionString: TEST_DATABASE_URL,
      options: `-c search_path=${quoteIdentifier(schema)}`,
    });
    await other.connect();
  });
  afterAll(async () => {
    if (unavailable) return;
    await db.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`);
    await db.close();
    await other.end();
  });

  it.skipIf(unavailable)(
    'a leased transaction that goes silent longer than its lease is ended by PostgreSQL: its work is rolled back and its row lock freed for another session',
    async () => {
      await db.query("INSERT INTO claims VALUES (1, 'nobody')");
      const silent = db.transaction(
        async (tx) => {
          await tx.query("UPDATE claims SET taken_by = 'frozen' WHERE id = 1");
          await sleep(3000);
          await tx.query('SELECT 1');
        },
        { leaseSeconds: 1 },
      );
      const outcome = silent.then(
        () => 'committed',
        (error: Error) => error.message,
      );
      const started = Date.now();
      const { rows } = await other.query<{ taken_by: string }>('SELECT taken_by FROM claims WHERE id = 1 FOR UPDATE');
      expect(Date.now() - started).toBeLessThan(2500);
      expect(rows).toEqual([{ taken_by: 'nobody' }]);
      expect(await outcome).not.toBe('committed');
      expect(await db.query('SELECT taken_by FROM claims WHERE id = 1')).toEqual([{ taken_by: 'nobody' }]);
    },
  );

  it.skipIf(unavailable)(
    'a session ended by the database in the middle of a transaction fails that transaction alone: the process and the pool go on',
    async () => {
      await db.query("INSERT INTO claims VALUES (2, 'nobody')");
      const ended = db.transaction(async (tx) => {
        await tx.query("UPDATE claims SET taken_by = 'ended' WHERE id = 2");
        await sleep(1500);
        await tx.query('SELECT 1');
      });
      const outcome = ended.then(
        () => 'committed',
        (error: Error) => error.message,
      );
      await sleep(300);
      const { rows } = await other.query<{ ended: boolean }>(
        "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = $1 AND state = 'idle in transaction'",
        [applicationName(process.pid)],
      );
      expect(rows).toEqual([{ ended: true }]);
      expect(await outcome).not.toBe('committed');
      expect(await db.query('SELECT taken_by FROM claims WHERE id = 2')).toEqual([{ taken_by: 'nobody' }]);
      expect(await db.transaction((tx) => tx.query('SELECT count(*)::int AS n FROM claims'))).toEqual([{ n: 2 }]);
    },
  );
});

describe('PostgreSQL schemas of instances starting together', () => {
  it.skipIf(unavailable)('several pools opened at the same moment on a new DATABASE_SCHEMA all open it', async () => {
    for (let round = 0; round < 5; round += 1) {
      const schema = `together_${randomBytes(6).toString('hex')}`;
      const opened = await Promise.allSettled(
        Array.from({ length: 4 }, () => openPostgres(TEST_DATABASE_URL, schema, 1)),
      );
      const pools = opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      try {
        expect(opened.map((result) => (result.status === 'rejected' ? String(result.reason) : 'opened'))).toEqual(
          Array(4).fill('opened'),
        );
      } finally {
        await pools[0]?.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`);
        await Promise.all(pools.map((pool) => pool.close()));
      }
    }
  });
});
