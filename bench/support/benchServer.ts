/**
 * The API's side of a benchmark that runs it in a child process (see serverProcess.ts): a fresh database, the app
 * listening on 127.0.0.1, its ready message sent over IPC, and the shutdown when the parent says 'stop'.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import type { ServerConfig } from '../../server/config.ts';
import { loadConfig } from '../../server/start/loadConfig.ts';
import type { Database } from '../../server/db/database.ts';
import { migrate } from '../../server/db/migrate.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres, quoteIdentifier } from '../../server/db/postgres.ts';
import { MemoryStorage } from '../../server/modules/uploads/storage.ts';
import type { DatabaseKind } from './serverProcess.ts';

export interface BenchDatabase {
  db: Database;
  /** The PostgreSQL schema made for this run, dropped when it ends; null on PGlite. */
  schema: string | null;
}

/**
 * A migrated database of its own: a new schema `<schemaPrefix>_<random>` on PostgreSQL; PGlite in `pgliteFolder` (a
 * data folder, as `npm start` keeps it), or in memory without one.
 */
export async function openBenchDatabase(
  kind: DatabaseKind,
  {
    postgresUrl,
    schemaPrefix,
    poolSize,
    pgliteFolder = null,
  }: { postgresUrl: string; schemaPrefix: string; poolSize: number; pgliteFolder?: string | null },
): Promise<BenchDatabase> {
  const schema = kind === 'postgres' ? `${schemaPrefix}_${randomBytes(4).toString('hex')}` : null;
  const db = schema ? await openPostgres(postgresUrl, schema, poolSize) : await openPglite(pgliteFolder);
  try {
    if (schema) await db.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
    await migrate(db);
  } catch (error) {
    await closeBenchDatabase({ db, schema });
    throw error;
  }
  return { db, schema };
}

/** Drops the run's schema, if any, and closes the database. */
export async function closeBenchDatabase({ db, schema }: BenchDatabase): Promise<void> {
  if (schema) await db.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`);
  await db.close();
}

/** As in production, with a secret of its own and warnings and errors only: a per-request info line would measure the log sink, not the API. */
export function benchConfig(): ServerConfig {
  return loadConfig({ NODE_ENV: 'production' } as NodeJS.ProcessEnv, {
    dataDir: null,
    databaseUrl: null,
    jwtSecret: randomBytes(32),
    logLevel: 'warn',
  });
}

/** The app on 127.0.0.1, on a port the system chooses, and the base address of its API. */
export async function listenOnLoopback(
  config: ServerConfig,
  { db }: BenchDatabase,
): Promise<{ app: FastifyInstance; base: string }> {
  const app = await buildApp({ config, db, storage: new MemoryStorage(), logger: { level: config.logLevel } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, base: `http://127.0.0.1:${port}/api/v1` };
}

/**
 * Sends `ready` to the parent, serves until it says 'stop' (or goes away), then closes the app, drops the run's
 * schema and the database, and ends the process.
 */
export async function serveUntilStopped(ready: object, app: FastifyInstance, database: BenchDatabase): Promise<never> {
  process.send?.(ready);
  await new Promise<void>((resolve) => {
    process.on('message', (message) => {
      if (message === 'stop') resolve();
    });
    process.on('disconnect', () => resolve());
  });
  await app.close();
  // Requests autocannon abandoned at the end of a run may still be inside the database.
  await new Promise((resolve) => setTimeout(resolve, 500));
  await closeBenchDatabase(database);
  process.exit(0);
}
