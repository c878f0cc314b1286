import { afterEach, describe, expect, it } from 'vitest';
import { HOUR_MILLISECONDS, PeriodicJob } from '../../jobs/periodicJob.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { until } from '../../testing/until.ts';
import type { ServerConfig } from '../../config.ts';

const databases = await testDatabases();
const TOKEN = 'metrics-token-of-the-scraper-0123456789';

/** The value of one sample of the exposition text, or null when it is not there. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const given = match[2]?.split(/,(?=[a-z_]+=")/) ?? [];
    if (wanted.every((label) => given.includes(label))) return Number(match[3]);
  }
  return null;
}

describe.each(databases)('GET /metrics on $kind', ({ kind, skip }) => {
  const opened: Array<{ close(): Promise<void> } | { stop(): Promise<void> }> = [];
  afterEach(async () => {
    for (const item of opened.splice(0).reverse()) await ('close' in item ? item.close() : item.stop());
  });
  async function server(overrides: Partial<ServerConfig> = {}): Promise<TestServer> {
    const started = await startTestServer(kind, overrides);
    opened.push(started);
    return started;
  }

  it.skipIf(skip)(
    'without a token set, a caller on this machine reads requests, connections, uploads, the outbox, jobs and the process in the Prometheus format',
    async () => {
      const { app, db, auth } = await server();
      // Pending messages due in an hour: the server's own delivery leaves them waiting.
      await db.query(
        `INSERT INTO outbox (recipient, subject, body, state, next_attempt_at) VALUES
         ('a@example.com', 's', 'b', 'pending', now() + interval '1 hour'), ('b@example.com', 's', 'b', 'pending', now() + interval '1 hour'),
         ('c@example.com', 's', 'b', 'failed', now())`,
      );
      // A webhook paused, so its deliveries wait: two pending, one failed.
      await db.query(
        `WITH hook AS (INSERT INTO webhooks (name, url, events, secret, enabled)
                       VALUES ('m', 'http://127.0.0.1:9/', '{webhook.ping}', 'whsec_m', false) RETURNING id)
         INSERT INTO webhook_deliveries (webhook_id, event_id, event, body, state)
         SELECT id, gen_random_uuid(), 'webhook.ping', '{}', state FROM hook, unnest('{pending,pending,failed}'::text[]) AS state`,
      );
      const job = new PeriodicJob('metrics test job', async () => undefined, HOUR_MILLISECONDS, app.log);
      opened.push(job);
      job.start();
      await until(() => job.lastRound, 'the job ran a round');
      const headers = await auth('Super Admin');
      for (let index = 0; index < 3; index += 1)
        expect((await app.inject({ method: 'GET', url: '/api/v1/countries?_page=1', headers })).statusCode).toBe(200);
      await app.inject({ method: 'GET', url: '/api/v1/no-such-thing' });

      const response = await app.inject({ method: 'GET', url: '/metrics' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(response.headers['cache-control']).toBe('no-store');
      const text = response.body;
      expect(
        sample(text, 'http_request_duration_seconds_count', {
          method: 'GET',
          route: '/api/v1/countries',
          status: '200',
        }),
      ).toBe(3);
      expect(
        sample(text, 'http_request_duration_seconds_count', { route: 'unmatched', status: '404' }),
      ).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'http_request_duration_seconds_bucket', { route: '/api/v1/countries', le: '+Inf' })).toBe(3);
      expect(sample(text, 'db_connections', { state: 'max' })).toBe(kind === 'pglite' ? 1 : 5);
      expect(sample(text, 'db_connections', { state: 'waiting' })).toBe(0);
      expect(sample(text, 'trade_uploads_processing')).toBe(0);
      expect(sample(text, 'trade_upload_rows_per_second')).toBe(0);
      expect(sample(text, 'mail_outbox_messages', { state: 'pending' })).toBe(2);
      expect(sample(text, 'mail_outbox_messages', { state: 'failed' })).toBe(1);
      expect(sample(text, 'webhook_deliveries', { state: 'pending' })).toBe(2);
      expect(sample(text, 'webhook_deliveries', { state: 'failed' })).toBe(1);
      expect(sample(text, 'job_last_round_success', { job: 'metrics test job' })).toBe(1);
      expect(sample(text, 'job_last_round_end_timestamp_seconds', { job: 'metrics test job' })).toBeCloseTo(
        job.lastRound!.endedAt / 1000,
        3,
      );
      expect(sample(text, 'nodejs_eventloop_lag_seconds')).not.toBeNull();
      expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    },
  );

  it.skipIf(skip)(
    'without a token set, it is a path no route serves for another machine, and in production for everyone',
    async () => {
      const development = await server();
      expect(
        (await development.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.7' })).statusCode,
      ).toBe(404);
      const production = await server({ production: true });
      expect((await production.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    },
  );

  it.skipIf(skip)(
    'with METRICS_TOKEN set, only that bearer token reads it, from anywhere and by every spelling the router takes for the path',
    async () => {
      const { app, auth } = await server({ metricsToken: TOKEN, production: true });
      const scraper = { authorization: `Bearer ${TOKEN}` };
      expect(
        (await app.inject({ method: 'GET', url: '/metrics', headers: scraper, remoteAddress: '203.0.113.7' }))
          .statusCode,
      ).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
      expect(
        (await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } }))
          .statusCode,
      ).toBe(401);
      expect((await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: TOKEN } })).statusCode).toBe(
        401,
      );
      // A signed-in administrator is not a scraper.
      expect(
        (await app.inject({ method: 'GET', url: '/metrics', headers: await auth('Super Admin') })).statusCode,
      ).toBe(401);
      for (const url of ['/%6detrics', '/metrics/']) {
        expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
        expect((await app.inject({ method: 'GET', url, headers: scraper })).statusCode, url).toBe(200);
      }
      for (const url of ['/METRICS', '//metrics', '/api/v1/metrics']) {
        const answer = await app.inject({ method: 'GET', url, headers: scraper });
        expect(answer.body, url).not.toContain('http_request_duration_seconds');
      }
    },
  );
});
