/**
 * The API under the audit benchmark, alone in its own process (bench.ts runs the load generator in the parent), on
 * its own PostgreSQL schema. BENCH_MODE=entries: 1,000,000 audit entries bulk-inserted with generate_series;
 * BENCH_MODE=writes: records of FEATURES to update, with the resource's `history` set from BENCH_HISTORY (on/off) in
 * the in-memory description before the routes are built.
 */
import { PasswordHasher } from '../../server/modules/auth/passwords.ts';
import { entityResource } from '../../server/registry.ts';
import { seedRolesAndUsers } from '../../server/seed/roles.ts';
import { benchConfig, listenOnLoopback, openBenchDatabase, serveUntilStopped } from '../support/benchServer.ts';

export interface AuditServerReady {
  type: 'ready';
  base: string;
  seedSeconds: number;
  /** Filter values that match what an administrator would look for in the seeded entries. */
  sample: { userId: number; module: string; action: string; recordId: number; from: string; to: string };
  /** BENCH_MODE=writes: the ids and codes of the records to update. */
  features: Array<{ id: number; code: string }>;
}

export const BENCH_MODULES = [
  'SUBSCRIBERS',
  'USERS',
  'ROLES',
  'VOUCHER',
  'COUNTRIES',
  'COMPANY',
  'BANNER',
  'SUBSCRIPTIONS',
  'EMPLOYEES',
  'CATEGORY',
  'DATA_UPLOAD_LOGS',
  'FEATURES',
  'OFFER_MODULE',
  'HS_CODES',
  'LOOKUPS',
  'NOTIFICATIONS',
];
export const BENCH_ACTIONS = [
  'create',
  'update',
  'status',
  'delete',
  'login',
  'logout',
  'top_up',
  'subscribe',
  'profile',
  'permissions',
];

const mode = process.env.BENCH_MODE === 'writes' ? 'writes' : 'entries';
const entries = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
const postgresUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const FEATURE_RECORDS = 500;

async function main(): Promise<void> {
  const database = await openBenchDatabase('postgres', {
    postgresUrl,
    schemaPrefix: 'bench_audit',
    poolSize: Number(process.env.BENCH_POOL_SIZE ?? 8),
  });
  const { db } = database;
  const config = benchConfig();
  await seedRolesAndUsers(db, new PasswordHasher(config.passwordHashing));
  const started = Date.now();
  if (mode === 'entries') {
    // 50 users, 16 modules, 10 actions, 100,000 records, one entry every 30 seconds over the last year or so.
    await db.query(
      `INSERT INTO audit_log (at, user_id, user_email, client_address, request_id, module, record_id, action, changes, details)
       SELECT now() - g * interval '30 seconds', g % 50 + 1, 'user' || (g % 50 + 1) || '@example.com', '10.0.' || (g % 7) || '.' || (g % 200), md5(g::text),
              ($2::text[])[g * 7 % array_length($2::text[], 1) + 1], g * 13 % 100000 + 1, ($3::text[])[g * 11 % array_length($3::text[], 1) + 1],
              jsonb_build_object('name', jsonb_build_object('before', 'Name ' || g, 'after', 'Name ' || (g + 1))), '{}'::jsonb
         FROM generate_series(1, $1::int) g`,
      [entries, BENCH_MODULES, BENCH_ACTIONS],
    );
    await db.exec('VACUUM ANALYZE audit_log');
  }
  const features = entityResource('FEATURES');
  if (!features) throw new Error('The manifest has no FEATURES resource to update.');
  // The switch the history benchmark compares: the resource's `history` as the manifest would set it.
  (features.entity as { history: boolean }).history = process.env.BENCH_HISTORY !== 'off';
  const seedSeconds = (Date.now() - started) / 1000;

  const { app, base } = await listenOnLoopback(config, database);
  const created: AuditServerReady['features'] = [];
  if (mode === 'writes') {
    const login = await app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { email: 'admin@example.com', password: 'Admin@12345' },
    });
    const headers = { authorization: `Bearer ${(login.json() as { data: { access: string } }).data.access}` };
    for (let index = 0; index < FEATURE_RECORDS; index += 1) {
      const code = `bench_feature_${index}`;
      const answer = await app.inject({
        method: 'POST',
        url: `/api/v1/${features.api}`,
        headers,
        payload: { code, name: `Feature ${index}` },
      });
      if (answer.statusCode !== 201) throw new Error(`POST ${features.api}: ${answer.statusCode} ${answer.body}`);
      created.push({ id: (answer.json() as { data: { id: number } }).data.id, code });
    }
  }
  // The values of an entry half-way back: a user, a module and action, a record and the week around it.
  const [middle] = await db.query<{ user_id: number; module: string; action: string; record_id: number; at: string }>(
    'SELECT user_id, module, action, record_id, at FROM audit_log ORDER BY id LIMIT 1 OFFSET $1',
    [Math.floor(entries / 2)],
  );
  const day = (offset: number) =>
    new Date(Date.parse(middle?.at ?? new Date().toISOString()) + offset * 86_400_000).toISOString().slice(0, 10);
  const sample = {
    userId: middle?.user_id ?? 1,
    module: middle?.module ?? 'SUBSCRIBERS',
    action: middle?.action ?? 'update',
    recordId: middle?.record_id ?? 1,
    from: day(-3),
    to: day(3),
  };
  const ready: AuditServerReady = { type: 'ready', base, seedSeconds, sample, features: created };
  await serveUntilStopped(ready, app, database);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
