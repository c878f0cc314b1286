/**
 * What one request costs in the database: every statement the list and get-by-id requests run, and the
 * EXPLAIN ANALYZE of each, on PGlite and PostgreSQL with the benchmark's data.
 * Run: node --import tsx bench/api/explain.ts  (BENCH_SUBSCRIBERS, BENCH_DATABASES as for bench.ts)
 */
import { randomBytes } from 'node:crypto';
import { buildApp } from '../../server/app.ts';
import { PasswordHasher } from '../../server/modules/auth/passwords.ts';
import { loadConfig } from '../../server/start/loadConfig.ts';
import type { Database } from '../../server/db/database.ts';
import { seedRolesAndUsers } from '../../server/seed/roles.ts';
import { MemoryStorage } from '../../server/modules/uploads/storage.ts';
import { closeBenchDatabase, openBenchDatabase } from '../support/benchServer.ts';
import { POSTGRES_URL } from '../support/load.ts';
import type { DatabaseKind } from '../support/serverProcess.ts';
import { seedBenchData } from './seed.ts';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 100_000);
const DATABASES = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',') as DatabaseKind[];

for (const kind of DATABASES) {
  const database = await openBenchDatabase(kind, { postgresUrl: POSTGRES_URL, schemaPrefix: 'bench', poolSize: 4 });
  const { db } = database;
  try {
    const config = loadConfig({ NODE_ENV: 'production' } as NodeJS.ProcessEnv, {
      dataDir: null,
      databaseUrl: null,
      jwtSecret: randomBytes(32),
    });
    await seedRolesAndUsers(db, new PasswordHasher(config.passwordHashing));
    const data = await db.transaction((tx) => seedBenchData(tx, SUBSCRIBERS));
    await db.exec('ANALYZE');
    const statements: Array<{ text: string; params: readonly unknown[] }> = [];
    const recording: Database = {
      ...db,
      kind: db.kind,
      query: (text, params = []) => {
        statements.push({ text, params });
        return db.query(text, params);
      },
    };
    const app = await buildApp({ config, db: recording, storage: new MemoryStorage() });
    const login = await app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { email: 'admin@example.com', password: 'Admin@12345' },
    });
    const headers = { authorization: `Bearer ${(login.json() as { data: { access: string } }).data.access}` };
    for (const url of [
      `/api/v1/subscribers?q=${encodeURIComponent(data.search)}&_sort=name&_order=asc&_page_size=20`,
      `/api/v1/subscribers/${data.subscriberId}`,
      '/api/v1/subscribers',
    ]) {
      statements.length = 0;
      const response = await app.inject({ method: 'GET', url, headers });
      console.info(
        `\n=== ${kind} GET ${url}: ${response.statusCode}, ${response.body.length} bytes, ${statements.length} statement(s)`,
      );
      for (const statement of [...statements]) {
        const plan = await db.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`,
          statement.params,
        );
        console.info(
          `--- ${statement.text.replace(/\s+/g, ' ').slice(0, 400)}\n${plan.map((row) => row['QUERY PLAN']).join('\n')}`,
        );
      }
    }
    await app.close();
  } finally {
    await closeBenchDatabase(database);
  }
}
