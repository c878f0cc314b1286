import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../db/database.ts';
import { openPglite } from '../db/pglite.ts';
import { quoteIdentifier } from '../db/postgres.ts';
import { DEMO_USERS, SEED_ROLES } from '../seed/roles.ts';
import {
  freePort,
  SERVER_READY,
  spawnProcess,
  startServerProcess,
  stopProcess,
  type ServerProcess,
} from '../testing/serverProcess.ts';
import { postgresUnavailable, TEST_DATABASE_URL } from '../testing/testServer.ts';

/** Real `npm start` processes starting at the same moment on one database: all serve, the demo data exists once. */
const unavailable = await postgresUnavailable();
if (unavailable) console.warn(`PostgreSQL variant SKIPPED: ${TEST_DATABASE_URL} is unreachable (${unavailable}).`);

const folders: string[] = [];
const running: ServerProcess[] = [];
const schemas: string[] = [];
const INSTANCES = 3;
const ROUNDS = 3;
const COUNTRIES_SEEDED = 15;
const SUBSCRIBERS_SEEDED = 1000;

function dataFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'server-together-'));
  folders.push(folder);
  return folder;
}

afterAll(async () => {
  await Promise.all(running.map(stopProcess));
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  if (!schemas.length) return;
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`);
  await client.end();
});

/** What one demo seed writes, counted; and how many of those rows are distinct, which must be the same. */
async function demoCounts(db: Queryable): Promise<Record<string, number>> {
  const count = async (sql: string) => Number((await db.query<{ n: number }>(sql))[0]!.n);
  return {
    roles: await count('SELECT count(*) AS n FROM roles'),
    distinctRoles: await count('SELECT count(DISTINCT name) AS n FROM roles'),
    rolePermissions: await count('SELECT count(*) AS n FROM role_permissions'),
    users: await count('SELECT count(*) AS n FROM users'),
    countries: await count('SELECT count(*) AS n FROM countries'),
    subscribers: await count('SELECT count(*) AS n FROM subscribers'),
    notifications: await count('SELECT count(*) AS n FROM notifications'),
  };
}

function expectOneDemoSet(counts: Record<string, number>, administrators = 0): void {
  expect(counts).toMatchObject({
    roles: SEED_ROLES.length,
    distinctRoles: SEED_ROLES.length,
    users: DEMO_USERS.length + administrators,
    countries: COUNTRIES_SEEDED,
    subscribers: SUBSCRIBERS_SEEDED,
    notifications: 3,
  });
  expect(counts.rolePermissions).toBeGreaterThan(0);
}

describe('start-up work when instances start together', () => {
  it.skipIf(unavailable)(
    `${INSTANCES} servers started at the same moment on one PostgreSQL all serve, with one set of demo data, beside create-admin (${ROUNDS} rounds)`,
    { timeout: 600_000 },
    async () => {
      const permissionsPerRound: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const schema = `together_${randomBytes(6).toString('hex')}`;
        schemas.push(schema);
        const env = {
          DATABASE_URL: TEST_DATABASE_URL,
          DATABASE_SCHEMA: schema,
          JWT_SECRET: randomBytes(32).toString('hex'),
        };
        const ports = await Promise.all(Array.from({ length: INSTANCES }, () => freePort()));
        const servers = ports.map((port) => startServerProcess(dataFolder(), port, env));
        // And an operator creating an administrator at that moment, which writes the Super Admin role too.
        const admin = spawnProcess(
          'server/cli/create-admin.mjs',
          ['--email', 'ops@example.com', '--password', 'Ops@123456'],
          env,
        );
        running.push(...servers, admin);
        await Promise.all(servers.map((server) => server.printed(SERVER_READY, 300_000)));
        expect(await admin.exited, admin.output()).toBe(0);
        for (const port of ports) {
          const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
          expect(ready.status, `round ${round}, port ${port}`).toBe(200);
        }
        const client = new pg.Client({
          connectionString: TEST_DATABASE_URL,
          options: `-c search_path=${quoteIdentifier(schema)},public`,
        });
        await client.connect();
        try {
          const counts = await demoCounts({
            query: async (text) => (await client.query(text)).rows,
            exec: async () => undefined,
          });
          expectOneDemoSet(counts, 1);
          permissionsPerRound.push(counts.rolePermissions!);
        } finally {
          await client.end();
        }
        await Promise.all(servers.map(stopProcess));
        for (const server of servers) expect(await server.exited, server.output()).toBe(0);
      }
      expect(new Set(permissionsPerRound).size).toBe(1);
    },
  );

  it.skipIf(unavailable)(
    'create-admin run several times at once on one PostgreSQL: each succeeds, the role and its permissions exist once',
    { timeout: 120_000 },
    async () => {
      const schema = `together_${randomBytes(6).toString('hex')}`;
      schemas.push(schema);
      const env = {
        DATABASE_URL: TEST_DATABASE_URL,
        DATABASE_SCHEMA: schema,
        JWT_SECRET: randomBytes(32).toString('hex'),
        NODE_ENV: 'production',
      };
      const admins = Array.from({ length: 4 }, (_, index) =>
        spawnProcess(
          'server/cli/create-admin.mjs',
          ['--email', `ops${index}@example.com`, '--password', 'Ops@123456'],
          env,
        ),
      );
      running.push(...admins);
      for (const admin of admins) expect(await admin.exited, admin.output()).toBe(0);
      const client = new pg.Client({
        connectionString: TEST_DATABASE_URL,
        options: `-c search_path=${quoteIdentifier(schema)},public`,
      });
      await client.connect();
      try {
        const { rows } = await client.query<{
          roles: number;
          users: number;
          permissions: number;
          distinct_permissions: number;
        }>(
          `SELECT (SELECT count(*)::int FROM roles) AS roles, (SELECT count(*)::int FROM users) AS users,
                (SELECT count(*)::int FROM role_permissions) AS permissions, (SELECT count(DISTINCT (module, action))::int FROM role_permissions) AS distinct_permissions`,
        );
        expect(rows[0]).toMatchObject({ roles: 1, users: 4 });
        expect(rows[0]!.permissions).toBe(rows[0]!.distinct_permissions);
      } finally {
        await client.end();
      }
    },
  );

  it(
    'a start killed while it seeds the demo data leaves none of it on PGlite, and the next start seeds it all',
    { timeout: 300_000 },
    async () => {
      // Moments after the migrations: during the roles and users, during the rest, and around the commit.
      for (const delayMs of [300, 1000, 2000]) {
        const folder = dataFolder();
        const first = startServerProcess(folder, await freePort());
        running.push(first);
        await first.printed('Applied migrations');
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        first.child.kill('SIGKILL');
        await first.exited;

        const second = startServerProcess(folder, await freePort());
        running.push(second);
        await second.printed(SERVER_READY);
        await stopProcess(second);
        expect(await second.exited).toBe(0);
        const db = await openPglite(join(folder, 'pglite'));
        try {
          expectOneDemoSet(await demoCounts(db));
        } finally {
          await db.close();
        }
      }
    },
  );
});
