import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { migrate } from '../../db/migrate.ts';
import { openPglite } from '../../db/pglite.ts';
import { openPostgres, quoteIdentifier } from '../../db/postgres.ts';
import { startTestServer, TEST_DATABASE_URL, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { MemoryStorage } from '../uploads/storage.ts';
import { STOPPING_MESSAGE } from './routes.ts';

const databases = await testDatabases();

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`);
  } finally {
    await client.end();
  }
}

/** A storage whose bucket or folder does not answer. */
class FailingStorage extends MemoryStorage {
  override async ready(): Promise<void> {
    throw new Error('the bucket does not answer');
  }
}

describe.each(databases)('health and readiness on $kind', ({ kind, skip }) => {
  const opened: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const item of opened.splice(0).reverse()) await item.close();
  });

  async function server(): Promise<TestServer> {
    const started = await startTestServer(kind);
    opened.push(started);
    return started;
  }

  async function appWith(
    started: TestServer,
    storage = started.storage,
    consoleDir: string | null = null,
  ): Promise<FastifyInstance> {
    const app = await buildApp({ config: started.config, db: started.db, storage, consoleDir });
    opened.push(app);
    await app.ready();
    return app;
  }

  it.skipIf(skip)('/healthz and /readyz answer JSON, never cached, with no token', async () => {
    const { app } = await server();
    const health = await app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.headers['content-type']).toContain('application/json');
    expect(health.headers['cache-control']).toBe('no-store');
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.headers['cache-control']).toBe('no-store');
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', storage: 'ok', migrations: 'ok' } });
  });

  it.skipIf(skip)(
    '/readyz answers 503 naming the storage when it fails, and the migrations when one is not recorded',
    async () => {
      const started = await server();
      const failing = await appWith(started, new FailingStorage());
      const storage = await failing.inject({ method: 'GET', url: '/readyz' });
      expect(storage.statusCode).toBe(503);
      expect(storage.json()).toEqual({
        status: 'not ready',
        checks: { database: 'ok', storage: 'failing', migrations: 'ok' },
      });
      expect((await failing.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

      await started.db.query("DELETE FROM schema_migrations WHERE version = '001_core'");
      const migrations = await started.app.inject({ method: 'GET', url: '/readyz' });
      expect(migrations.statusCode).toBe(503);
      expect(migrations.json()).toEqual({
        status: 'not ready',
        checks: { database: 'ok', storage: 'ok', migrations: 'pending' },
      });
    },
  );

  it.skipIf(skip)('/readyz answers 503 naming the database once it is closed; /healthz still 200', async () => {
    const started = await server();
    const schema = `health_${randomBytes(6).toString('hex')}`;
    const db = kind === 'postgres' ? await openPostgres(TEST_DATABASE_URL, schema, 1) : await openPglite(null);
    if (kind === 'postgres') opened.push({ close: () => dropSchema(schema) });
    await migrate(db);
    const app = await buildApp({ config: started.config, db, storage: started.storage });
    opened.push(app);
    await app.ready();
    await db.close();
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({
      status: 'not ready',
      checks: { database: 'failing', storage: 'ok', migrations: 'failing' },
    });
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
  });

  it.skipIf(skip)(
    'with the console served, the probes answer JSON, not its page; a path the router does not match gets what any unmatched path gets',
    async () => {
      const started = await server();
      const folder = await mkdtemp(join(tmpdir(), 'console-dist-'));
      opened.push({ close: () => rm(folder, { recursive: true, force: true }) });
      await writeFile(join(folder, 'index.html'), '<!doctype html><title>Console</title><div id="root"></div>');
      const app = await appWith(started, started.storage, folder);
      for (const url of ['/healthz', '/readyz', '/%68ealthz', '/readyz/']) {
        const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['content-type'], url).toContain('application/json');
        expect(response.body, url).not.toContain('<title>Console</title>');
      }
      const unmatched = await app.inject({ method: 'GET', url: '/no-such-page', headers: { accept: 'text/html' } });
      for (const url of ['//readyz', '/READYZ']) {
        const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
        expect(response.statusCode, url).toBe(unmatched.statusCode);
        expect(response.body, url).toBe(unmatched.body);
      }
    },
  );

  it.skipIf(skip)(
    'the router decides which spellings are the probes (as for every route): a percent-encoded letter or a trailing slash is; another case, a doubled slash or another prefix is not',
    async () => {
      const { app } = await server();
      for (const url of ['/%68ealthz', '/healthz/', '/healthz?probe=1'])
        expect((await app.inject({ method: 'GET', url })).json(), url).toEqual({ status: 'ok' });
      expect((await app.inject({ method: 'GET', url: '/%72eadyz' })).json()).toMatchObject({ status: 'ready' });
      for (const url of ['//readyz', '/READYZ', '/Healthz', '/readyz.', '/api/v1/readyz']) {
        const response = await app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(404);
        expect(response.body, url).not.toContain('"status"');
      }
      for (const method of ['POST', 'DELETE'] as const)
        expect((await app.inject({ method, url: '/readyz' })).statusCode).toBe(404);
    },
  );

  it.skipIf(skip)('/readyz answers 503 "stopping" once a stop begins, while /healthz still answers 200', async () => {
    const started = await server();
    const app = await appWith(started);
    app.stopping = true;
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'stopping', message: STOPPING_MESSAGE });
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
