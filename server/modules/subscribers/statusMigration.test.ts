/**
 * The migration to derived statuses (core 021, manifest 0005) moves a database whose statuses were typed to what its
 * subscriptions say, lists by id each subscriber it decided for, and keeps the money the ledger recorded as payments.
 */
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { Database } from '../../db/database.ts';
import { DEFAULT_SOURCES } from '../../db/knownMigrations.ts';
import { migrate } from '../../db/migrate.ts';
import { openPglite } from '../../db/pglite.ts';
import { openPostgres, quoteIdentifier } from '../../db/postgres.ts';
import { TEST_DATABASE_URL, testDatabases } from '../../testing/testServer.ts';

const databases = await testDatabases();

/** The committed migrations as they were before subscriptions carried money and statuses were derived. */
async function formerSources(): Promise<{ core: string; manifest: string }> {
  const folder = await mkdtemp(join(tmpdir(), 'status-migration-'));
  onTestFinished(() => rm(folder, { recursive: true, force: true }));
  // `first` and every later migration are left out (names sort as they apply).
  const before = (from: string, to: string, first: string) =>
    cp(from, to, {
      recursive: true,
      filter: (path) => !(/^\d/.test(path.split('/').pop()!) && path.split('/').pop()! >= first),
    });
  await before(DEFAULT_SOURCES.core, join(folder, 'core'), '021_');
  await before(DEFAULT_SOURCES.manifest, join(folder, 'manifest'), '0005_');
  return { core: join(folder, 'core'), manifest: join(folder, 'manifest') };
}

describe.each(databases)('the migration to derived statuses on $kind', ({ kind, skip }) => {
  let db: Database | null = null;
  let schema: string | null = null;
  afterEach(async () => {
    if (schema) await db?.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`);
    await db?.close();
    db = null;
  });

  it.skipIf(skip)(
    "typed statuses become the derived ones; each subscriber decided for is listed; the ledger's money becomes payments",
    async () => {
      schema = kind === 'postgres' ? `test_${randomBytes(6).toString('hex')}` : null;
      db = kind === 'postgres' ? await openPostgres(TEST_DATABASE_URL, schema, 2) : await openPglite(null);
      await migrate(db, { sources: await formerSources() });
      const [country] = await db.query<{ id: number }>(
        `INSERT INTO countries (name, iso2, iso3, region, currency_code) VALUES ('India', 'IN', 'IND', 'asia', 'INR') RETURNING id`,
      );
      const [plan] = await db.query<{ id: number }>(
        `INSERT INTO plans (name, code, price, validity_days, points, max_users) VALUES ('Gold', 'GOLD', 1000.5, 365, 10, 1) RETURNING id`,
      );
      const subscriber = async (name: string, status: string, planId: number | null) =>
        Number(
          (
            await db!.query<{ id: number }>(
              `INSERT INTO subscribers (name, email, mobile, country_id, status, plan_id) VALUES ($1, $2, '9876543210', $5, $3, $4) RETURNING id`,
              [name, `${name}@example.com`, status, planId, country!.id],
            )
          )[0]!.id,
        );
      const ids = {
        agrees: await subscriber('agrees', 'subscribed', plan!.id),
        typedWithout: await subscriber('typedwithout', 'subscribed', plan!.id),
        ended: await subscriber('ended', 'subscribed', plan!.id),
        neverBought: await subscriber('neverbought', 'trial', null),
      };
      await db.query(
        `INSERT INTO subscriber_subscriptions (subscriber_id, plan_id, starts_on, ends_on, points, price) VALUES
         ($1, $3, current_date - 10, current_date + 300, 10, 1000.5), ($2, $3, current_date - 400, current_date - 35, 10, 1000.5)`,
        [ids.agrees, ids.ended, plan!.id],
      );
      const [sale] = await db.query<{ id: number }>(
        `SELECT id FROM subscriber_subscriptions WHERE subscriber_id = $1`,
        [ids.agrees],
      );
      await db.query(
        `INSERT INTO points_ledger (subscriber_id, kind, points, amount, balance_after, subscription_id) VALUES ($1, 'subscription', 10, 1000.5, 10, $2), ($1, 'top_up', 5, 0.1, 15, NULL), ($1, 'consumption', -5, 0, 10, NULL)`,
        [ids.agrees, sale!.id],
      );

      // Both run, the money first (later migrations of other tables may run between them).
      const { applied } = await migrate(db);
      expect(
        applied.filter(
          (name) => name === '021_subscription_money' || name === 'manifest/0005_subscriber_status_derived',
        ),
      ).toEqual(['021_subscription_money', 'manifest/0005_subscriber_status_derived']);
      const states = await db.query<{ name: string; status: string; plan_id: number | null }>(
        'SELECT name, status, plan_id FROM subscribers ORDER BY id',
      );
      expect(states).toEqual([
        { name: 'agrees', status: 'active', plan_id: plan!.id },
        { name: 'typedwithout', status: 'none', plan_id: null },
        { name: 'ended', status: 'expired', plan_id: null },
        { name: 'neverbought', status: 'none', plan_id: null },
      ]);
      const decisions = await db.query<{ record_id: number; decision: string }>(
        `SELECT record_id, decision FROM migration_decisions WHERE migration = '0005_subscriber_status_derived' ORDER BY record_id`,
      );
      expect(decisions.map((row) => row.record_id)).toEqual([ids.typedWithout, ids.ended]);
      expect(decisions[0]!.decision).toBe(
        `status subscribed and plan ${plan!.id} were typed; the subscriptions say status none and plan none`,
      );
      expect(await db.query(`SELECT kind, amount::text AS amount FROM payments ORDER BY id`)).toEqual([
        { kind: 'subscription', amount: '1000.50' },
        { kind: 'top_up', amount: '0.10' },
      ]);
      expect(
        await db.query(
          `SELECT list_price::text AS list_price, amount_due::text AS due, amount_paid::text AS paid FROM subscriber_subscriptions WHERE subscriber_id = $1`,
          [ids.agrees],
        ),
      ).toEqual([{ list_price: '1000.50', due: '1000.50', paid: '1000.50' }]);
    },
  );
});
