/**
 * npm run bench:trade-report: the uploaded-data report (GET uploaded-data-report through the real app, app.inject)
 * on 50M trade records on PostgreSQL (96 uploads of ~520k records, load.ts) and 2M on PGlite. For each filter shape,
 * the first page's p95 (budget 100 ms: its total comes from the uploads' counts, or the planner's estimate), the next
 * page by keyset (100 ms), a page deep in the data by its cursor (100 ms), a search within a month (1 s), a search
 * over everything (no budget: bounded by the search timeout), and the bare SQL of the same page for comparison.
 * BENCH_DATABASES (pglite,postgres), BENCH_ROWS_PER_UPLOAD (PostgreSQL, 520000), BENCH_PGLITE_ROWS_PER_UPLOAD (20834),
 * BENCH_SAMPLES (30); BENCH_KEEP=1 keeps the PostgreSQL schema (a later run measures it without loading again).
 * The PostgreSQL is BENCH_DATABASE_URL, else bench_report on 127.0.0.1.
 */
import { randomBytes } from 'node:crypto';
import { loadavg, tmpdir } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/start/loadConfig.ts';
import type { Database } from '../../server/db/database.ts';
import { migrate } from '../../server/db/migrate.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres, quoteIdentifier } from '../../server/db/postgres.ts';
import { PasswordHasher } from '../../server/modules/auth/passwords.ts';
import { MemoryStorage } from '../../server/modules/uploads/storage.ts';
import { DATA_SHAPE } from '../../server/registry.ts';
import { seedRolesAndUsers } from '../../server/seed/roles.ts';
import { TEST_PASSWORD_HASHING } from '../../server/testing/testServer.ts';
import { postgresReachable } from '../support/load.ts';
import type { DatabaseKind } from '../support/serverProcess.ts';
import { loadTradeRecords } from './load.ts';
import { measureReport } from './reportScenarios.ts';
import { printResults } from './timings.ts';

const DATABASES = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',') as DatabaseKind[];
const ROWS_PER_UPLOAD: Record<DatabaseKind, number> = {
  postgres: Number(process.env.BENCH_ROWS_PER_UPLOAD ?? 520_000),
  pglite: Number(process.env.BENCH_PGLITE_ROWS_PER_UPLOAD ?? 20_834),
};
const POSTGRES = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_report';
const SCHEMA = 'trade_report_bench';

async function open(kind: DatabaseKind): Promise<{ db: Database; cleanup: () => Promise<void> }> {
  if (kind === 'postgres') {
    const admin = await openPostgres(POSTGRES, null, 1);
    await admin.exec(`CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public`);
    await admin.exec(
      `ALTER DATABASE ${quoteIdentifier(new URL(POSTGRES).pathname.slice(1))} SET maintenance_work_mem = '256MB'`,
    );
    await admin.close();
    const db = await openPostgres(POSTGRES, SCHEMA, 6);
    return {
      db,
      cleanup: async () =>
        process.env.BENCH_KEEP === '1' ? undefined : db.exec(`DROP SCHEMA ${quoteIdentifier(SCHEMA)} CASCADE`),
    };
  }
  const folder = await mkdtemp(join(tmpdir(), 'trade-report-bench-'));
  const db = await openPglite(folder);
  return { db, cleanup: () => rm(folder, { recursive: true, force: true }) };
}

async function benchDatabase(kind: DatabaseKind): Promise<void> {
  const { db, cleanup } = await open(kind);
  let app: FastifyInstance | null = null;
  try {
    await migrate(db, { manifestShape: DATA_SHAPE });
    const config = loadConfig({ NODE_ENV: 'test' } as NodeJS.ProcessEnv, {
      dataDir: null,
      databaseUrl: null,
      jwtSecret: randomBytes(32),
      passwordHashing: TEST_PASSWORD_HASHING,
    });
    await seedRolesAndUsers(db, new PasswordHasher(config.passwordHashing));
    app = await buildApp({ config, db, storage: new MemoryStorage() });
    await app.ready();
    const signIn = async () => {
      const login = await app!.inject({
        method: 'POST',
        url: '/api/v1/login',
        payload: { email: 'admin@example.com', password: 'Admin@12345' },
      });
      return { authorization: `Bearer ${(login.json() as { data: { access: string } }).data.access}` };
    };
    console.info(
      `${kind}: loading ${(ROWS_PER_UPLOAD[kind] * 96).toLocaleString('en')} trade records (load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')})`,
    );
    const { uploads, seconds } = await loadTradeRecords(app, db, ROWS_PER_UPLOAD[kind], await signIn());
    console.info(
      seconds
        ? `${kind}: loaded in ${seconds.toFixed(0)} s (load average ${loadavg()
            .map((n) => n.toFixed(1))
            .join(' ')})`
        : `${kind}: the data set was kept from an earlier run`,
    );
    // Signed in again: a load outlasts an access token.
    await measureReport(kind, app, db, await signIn(), uploads);
  } finally {
    await app?.close();
    await cleanup();
    await db.close();
  }
}

for (const kind of DATABASES) {
  if (kind === 'postgres' && !(await postgresReachable(POSTGRES))) {
    console.warn(`PostgreSQL at ${POSTGRES} is unreachable: its lines are SKIPPED.`);
    continue;
  }
  await benchDatabase(kind);
}
process.exitCode = printResults() ? 0 : 1;
