import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app.ts';
import { PasswordHasher } from '../modules/auth/passwords.ts';
import type { MailConfig, ServerConfig, WebhookConfig } from '../config.ts';
import { loadConfig } from '../start/loadConfig.ts';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { DATA_SHAPE } from '../registry.ts';
import { openPostgres, quoteIdentifier } from '../db/postgres.ts';
import { seedDemoData } from '../seed/demo.ts';
import { DEMO_USERS, seedRolesAndUsers } from '../seed/roles.ts';
import { MemoryStorage } from '../modules/uploads/storage.ts';
import type { ResourceBehaviours } from '../modules/resources/behaviours.ts';
import { checkLosslessAnswers } from './losslessAnswers.ts';
import { openMigratedPglite } from './migratedPglite.ts';

export type DatabaseKind = 'pglite' | 'postgres';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A cheap argon2id cost for tests only, chosen explicitly here; the server's default is never lowered. */
export const TEST_PASSWORD_HASHING = { memoryCost: 1024, timeCost: 1, parallelism: 1, maxConcurrent: 4 };

/** Longer than any test: the test server's background retry of waiting uploads never fires on its own. */
const TEST_UPLOAD_RETRY_SECONDS = 24 * 60 * 60;

/** A delivery schedule for tests: messages are looked for often and retried soon. */
export function testMail(smtpUrl: string | null, schedule: Partial<MailConfig> = {}): MailConfig {
  return {
    smtpUrl,
    from: '"Trade Data console" <no-reply@example.com>',
    pollMilliseconds: 50,
    claimMilliseconds: 5_000,
    firstRetryMilliseconds: 100,
    maxRetryMilliseconds: 400,
    giveUpAfterMilliseconds: 60_000,
    ...schedule,
  };
}

/** Webhook deliveries looked for often and retried soon, so that a test waits moments, not minutes. */
export const TEST_WEBHOOKS: WebhookConfig = {
  receivers: 'loopback',
  keptDays: 30,
  pollMilliseconds: 50,
  claimMilliseconds: 5_000,
  firstRetryMilliseconds: 100,
  maxRetryMilliseconds: 400,
  giveUpAfterMilliseconds: 60_000,
};

export interface TestServer {
  kind: DatabaseKind;
  app: FastifyInstance;
  db: Database;
  config: ServerConfig;
  storage: MemoryStorage;
  userIds: Map<string, number>;
  /** Logs in a seeded user (by role name or e-mail) and returns the token pair. */
  login(who: string): Promise<{ access: string; refresh: string }>;
  /** Authorization header of a seeded user, logging in once per user. */
  auth(who: string): Promise<Record<string, string>>;
  close(): Promise<void>;
}

let postgresReachable: Promise<string | null> | null = null;

/** Null when PostgreSQL answers, otherwise why not (the PostgreSQL variant is then skipped, visibly). */
export function postgresUnavailable(): Promise<string | null> {
  postgresReachable ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      // The extension lives in public, shared by every test schema; creating it concurrently may race.
      for (let attempt = 0; attempt < 5; attempt += 1) {
        try {
          await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
          break;
        } catch (error) {
          if (attempt === 4) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
      return null;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return postgresReachable;
}

/** The databases a suite runs on: PGlite always, PostgreSQL when reachable. */
export async function testDatabases(): Promise<Array<{ kind: DatabaseKind; skip: string | null }>> {
  const unavailable = await postgresUnavailable();
  if (unavailable) console.warn(`PostgreSQL variant SKIPPED: ${TEST_DATABASE_URL} is unreachable (${unavailable}).`);
  return [
    { kind: 'pglite', skip: null },
    { kind: 'postgres', skip: unavailable },
  ];
}

export interface TestServerOptions {
  /** The demo data `npm start` seeds (docs/demo-data.md), with this many subscribers; absent: the roles and users only. */
  demoSubscribers?: number;
  /** Resource behaviours in place of the modules' own (a fixture behaviour that records its hooks). */
  behaviours?: ResourceBehaviours;
}

/** The real app on a fresh real database (in-memory PGlite, or its own PostgreSQL schema), with the seeded roles. */
export async function startTestServer(
  kind: DatabaseKind,
  overrides: Partial<ServerConfig> = {},
  options: TestServerOptions = {},
): Promise<TestServer> {
  const schema = kind === 'postgres' ? `test_${randomBytes(6).toString('hex')}` : null;
  const config = loadConfig({ NODE_ENV: 'test' } as NodeJS.ProcessEnv, {
    dataDir: null,
    databaseUrl: kind === 'postgres' ? TEST_DATABASE_URL : null,
    databaseSchema: schema,
    jwtSecret: randomBytes(32),
    passwordHashing: TEST_PASSWORD_HASHING,
    // A test's instances take up waiting uploads when the test says (at their start, by enqueue, or with a retry
    // interval it gives): a round of retries at a moment set by the machine's speed would take a test's upload
    // from under the instance it checks.
    uploadRetrySeconds: TEST_UPLOAD_RETRY_SECONDS,
    ...overrides,
  });
  const db = kind === 'postgres' ? await openPostgres(TEST_DATABASE_URL, schema, 5) : await openMigratedPglite();
  // On PGlite the image is migrated already: this checks it holds the manifest's shape, as every server start does.
  await migrate(db, { manifestShape: DATA_SHAPE });
  const passwords = new PasswordHasher(config.passwordHashing);
  if (options.demoSubscribers !== undefined)
    await seedDemoData(db, passwords, { subscribers: options.demoSubscribers });
  const userIds = await seedRolesAndUsers(db, passwords);
  const storage = new MemoryStorage();
  const app = await buildApp({
    config,
    db,
    storage,
    onRoute: checkLosslessAnswers,
    ...(options.behaviours ? { behaviours: options.behaviours } : {}),
  });
  await app.ready();
  const tokens = new Map<string, { access: string; refresh: string }>();

  const emailOf = (who: string) => DEMO_USERS.find((user) => user.role === who || user.email === who) ?? null;
  const login = async (who: string) => {
    const user = emailOf(who);
    if (!user) throw new Error(`No seeded user ${who}`);
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { email: user.email, password: user.password },
    });
    if (response.statusCode !== 200) throw new Error(`login ${who}: ${response.statusCode} ${response.body}`);
    return (response.json() as { data: { access: string; refresh: string } }).data;
  };
  return {
    kind,
    app,
    db,
    config,
    storage,
    userIds,
    login,
    async auth(who) {
      let pair = tokens.get(who);
      if (!pair) {
        pair = await login(who);
        tokens.set(who, pair);
      }
      return { authorization: `Bearer ${pair.access}` };
    },
    async close() {
      await app.close();
      if (schema) await db.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`);
      await db.close();
    },
  };
}

/**
 * Verifies a user's address the way the user does: the link in the newest verification e-mail written to them, posted
 * to `email-verify` (what the console's verify screen does with it).
 */
export async function verifyByEmailedLink(server: Pick<TestServer, 'app' | 'db'>, email: string): Promise<void> {
  const [mail] = await server.db.query<{ body: string }>(
    `SELECT body FROM outbox WHERE recipient = $1 AND body LIKE '%/auth/verify-email?token=%' ORDER BY id DESC LIMIT 1`,
    [email.toLowerCase()],
  );
  const token = mail && new URL(/https?:\/\/\S+verify-email\S+/.exec(mail.body)![0]).searchParams.get('token');
  if (!token) throw new Error(`no verification e-mail to ${email}`);
  const verified = await server.app.inject({ method: 'POST', url: '/api/v1/email-verify', payload: { token } });
  if (verified.statusCode !== 200)
    throw new Error(`email-verify for ${email}: ${verified.statusCode} ${verified.body}`);
}

/** Decodes the payload of a JWT without checking it (what the console does with jwt-decode). */
export function tokenClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}
