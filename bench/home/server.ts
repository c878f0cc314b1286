/**
 * The API under the home screen benchmark, in its own process (see bench/api/server.ts): the API benchmark's
 * subscribers on PostgreSQL, shaped as the home screen meets them (every status, a year of sign-ups and payments, one
 * subscriber in five assigned to the demo executive, uploads of ten countries, a long audit log), then serving.
 */
import type { Queryable } from '../../server/db/database.ts';
import { PasswordHasher } from '../../server/modules/auth/passwords.ts';
import { MODULE, entityResource } from '../../server/registry.ts';
import { quoted } from '../../codegen/sqlNames.ts';
import { insertRecord } from '../../server/seed/seedRecords.ts';
import { seedRolesAndUsers } from '../../server/seed/roles.ts';
import { seedBenchData } from '../api/seed.ts';
import { benchConfig, listenOnLoopback, openBenchDatabase, serveUntilStopped } from '../support/benchServer.ts';

export interface HomeServerReady {
  type: 'ready';
  base: string;
  seedSeconds: number;
  /** What the home screen counts, as seeded. */
  seeded: { subscribers: number; payments: number; uploads: number; auditEntries: number };
}

const subscriberCount = Number(process.env.BENCH_SUBSCRIBERS ?? 100_000);
const postgresUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PAYMENTS = subscriberCount;
const UPLOADS = 2_000;
const AUDIT_ENTRIES = 2 * subscriberCount;

async function shapeForHome(
  db: Queryable,
  { salesUserId, adminUserId }: { salesUserId: number; adminUserId: number },
): Promise<void> {
  const subscribers = quoted(entityResource(MODULE.subscribers)!.entity.table);
  const uploads = quoted(entityResource(MODULE.dataUploadLogs)!.entity.table);
  const executiveId = await insertRecord(db, MODULE.executiveProfile, {
    user_id: salesUserId,
    employee_code: 'EXE-0001',
    region: 'west',
    target_subscribers: 250,
    mobile: '9876500001',
  });
  await db.query(
    `UPDATE ${subscribers} SET executive_id = CASE WHEN id % 5 = 0 THEN $1::bigint END,
        status = (ARRAY['none', 'trial', 'active', 'active', 'expiring', 'expired', 'cancelled'])[1 + id % 7],
        created_at = now() - (id % 400) * interval '1 day' - (id % 24) * interval '1 hour'`,
    [executiveId],
  );
  await db.query(
    `INSERT INTO payments (subscriber_id, kind, amount, received_at)
     SELECT s.id, CASE WHEN g % 3 = 0 THEN 'top_up' ELSE 'subscription' END, 500 + (g % 50) * 100, now() - (g % 365) * interval '1 day'
       FROM generate_series(1, $1::int) g JOIN ${subscribers} s ON s.id = (SELECT min(id) FROM ${subscribers}) + g % $2::int`,
    [PAYMENTS, subscriberCount],
  );
  await db.query(
    `INSERT INTO ${uploads} (country_id, trade_direction, period, file_name, size, status, created_at)
     SELECT c.id, CASE WHEN g % 2 = 0 THEN 'import' ELSE 'export' END, to_char(now() - (g % 48) * interval '1 month', 'YYYY-MM'),
            'bench-' || g || '.csv', 1000, (ARRAY['published', 'published', 'published', 'failed', 'replaced', 'pending', 'processing'])[1 + g % 7],
            now() - g * interval '1 hour'
       FROM generate_series(1, $1::int) g JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM countries) c ON c.n = g % 10`,
    [UPLOADS],
  );
  await db.query(
    `INSERT INTO audit_log (at, user_id, user_email, module, record_id, action)
     SELECT now() - g * interval '1 minute', $2::bigint, 'admin@example.com', 'SUBSCRIBERS', (SELECT min(id) FROM ${subscribers}) + g % $3::int, 'update'
       FROM generate_series(1, $1::int) g`,
    [AUDIT_ENTRIES, adminUserId, subscriberCount],
  );
}

async function main(): Promise<void> {
  const database = await openBenchDatabase('postgres', { postgresUrl, schemaPrefix: 'bench_home', poolSize: 8 });
  const { db } = database;
  const config = benchConfig();
  const userIds = await seedRolesAndUsers(db, new PasswordHasher(config.passwordHashing));
  const started = Date.now();
  await db.transaction(async (tx) => {
    await seedBenchData(tx, subscriberCount);
    await shapeForHome(tx, {
      salesUserId: userIds.get('sales@example.com')!,
      adminUserId: userIds.get('admin@example.com')!,
    });
  });
  // What autovacuum does to freshly loaded tables: statistics, so the planner knows what it reads.
  await db.exec('VACUUM ANALYZE');
  const seedSeconds = (Date.now() - started) / 1000;
  const { app, base } = await listenOnLoopback(config, database);
  const seeded = { subscribers: subscriberCount, payments: PAYMENTS, uploads: UPLOADS, auditEntries: AUDIT_ENTRIES };
  const ready: HomeServerReady = { type: 'ready', base, seedSeconds, seeded };
  await serveUntilStopped(ready, app, database);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
