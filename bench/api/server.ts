/**
 * The API under benchmark, alone in its own process: the load generator (bench.ts) runs in the parent, so
 * autocannon never competes with the server for this process's event loop. Seeds the database, listens on
 * 127.0.0.1, reports what to request over IPC and shuts down when told to.
 */
import { PasswordHasher } from '../../server/modules/auth/passwords.ts';
import type { Database } from '../../server/db/database.ts';
import { MODULE, entityResource } from '../../server/registry.ts';
import { quoted } from '../../codegen/sqlNames.ts';
import { seedRolesAndUsers } from '../../server/seed/roles.ts';
import { benchConfig, listenOnLoopback, openBenchDatabase, serveUntilStopped } from '../support/benchServer.ts';
import { seedBenchData } from './seed.ts';

export interface ServerReady {
  type: 'ready';
  base: string;
  search: string;
  /** How many subscribers the search matches (the page shows 20 of them). */
  matches: number;
  subscriberId: number;
  /** Distinct company-name fragments like `search`. */
  searches: string[];
  /** People who sign in during the login line, one each per connection, as at the start of a working day. */
  signIns: Array<{ email: string; password: string }>;
  seedSeconds: number;
}

const kind = process.env.BENCH_DATABASE === 'postgres' ? 'postgres' : 'pglite';
const subscriberCount = Number(process.env.BENCH_SUBSCRIBERS ?? 100_000);
const postgresUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/**
 * PostgreSQL, this server and autocannon share 2 cores: 8 connections keep PostgreSQL busy without 20 backends
 * fighting over them (measured: get-by-id 1,271 req/s, p99 127 ms at 8; 1,054 req/s, p99 254 ms at 20).
 */
const poolSize = Number(process.env.BENCH_POOL_SIZE ?? 8);

const SIGN_IN_USERS = 64;
const SIGN_IN_PASSWORD = 'Bench@12345';

/**
 * Accounts for the login line, their addresses verified (an unverified one is refused with 403). Many people sign in
 * at once, not one person 50 times in parallel: an account's attempts are counted before their passwords are checked,
 * so one account signing in on 50 connections is throttled.
 */
async function seedSignInUsers(db: Database, passwords: PasswordHasher): Promise<ServerReady['signIns']> {
  const hash = await passwords.hash(SIGN_IN_PASSWORD);
  const emails = Array.from({ length: SIGN_IN_USERS }, (_, index) => `bench-user-${index + 1}@example.com`);
  await db.query(
    `INSERT INTO users (first_name, last_name, email, password_hash, role_id, is_active, email_verified_at)
     SELECT 'Bench', 'User', email, $2, (SELECT id FROM roles WHERE name = 'Read Only'), true, now()
       FROM unnest($1::text[]) AS email`,
    [emails, hash],
  );
  return emails.map((email) => ({ email, password: SIGN_IN_PASSWORD }));
}

async function main(): Promise<void> {
  const database = await openBenchDatabase(kind, { postgresUrl, schemaPrefix: 'bench', poolSize });
  const { db } = database;
  const config = benchConfig();
  const passwords = new PasswordHasher(config.passwordHashing);
  await seedRolesAndUsers(db, passwords);
  const signIns = await seedSignInUsers(db, passwords);
  const started = Date.now();
  const data = await db.transaction((tx) => seedBenchData(tx, subscriberCount));
  // What autovacuum does to a freshly loaded table on PostgreSQL (and PGlite's small GIN pending list keeps
  // true there between vacuums): statistics, and the trigram index's pending entries merged into the index.
  await db.exec('VACUUM ANALYZE');
  const seedSeconds = (Date.now() - started) / 1000;
  const subscribers = entityResource(MODULE.subscribers)!;
  const needle = `%${data.search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  const [counted] = await db.query<{ n: number }>(
    `SELECT count(*) AS n FROM ${quoted(subscribers.entity.table)} WHERE ${subscribers.searchSql} LIKE $1`,
    [needle],
  );

  const { app, base } = await listenOnLoopback(config, database);
  const ready: ServerReady = {
    type: 'ready',
    base,
    search: data.search,
    matches: counted?.n ?? 0,
    subscriberId: data.subscriberId,
    searches: data.searches,
    signIns,
    seedSeconds,
  };
  await serveUntilStopped(ready, app, database);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
