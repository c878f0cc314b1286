import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { startTestServer } from '../testing/testServer.ts';
import type { LogFormat } from './requestLog.ts';

/** A stream that keeps what is written to it, line by line. */
function collector(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines };
}

describe('request logging', () => {
  const opened: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const item of opened.splice(0).reverse()) await item.close();
  });

  async function appLogging(format: LogFormat) {
    const server = await startTestServer('pglite');
    opened.push(server);
    const { stream, lines } = collector();
    const app = await buildApp({
      config: server.config,
      db: server.db,
      storage: server.storage,
      logger: { level: 'info', format, stream },
    });
    opened.push(app);
    await app.ready();
    return { app, lines };
  }

  it('pretty: one readable line per request, with its method, path, status and time, and no JSON', async () => {
    const { app, lines } = await appLogging('pretty');
    await app.inject({ method: 'GET', url: '/healthz' });
    await app.inject({ method: 'GET', url: '/api/v1/countries' });
    const requests = lines.filter((line) => / (GET|POST) /.test(line));
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: GET \/healthz 200 \d+ ms$/);
    expect(requests[1]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: GET \/api\/v1\/countries 401 \d+ ms$/);
    expect(lines.some((line) => line.startsWith('{'))).toBe(false);
  });

  it('json: the lines Fastify writes, each naming its request by id', async () => {
    const { app, lines } = await appLogging('json');
    await app.inject({ method: 'GET', url: '/healthz' });
    const entries = lines.map((line) => JSON.parse(line) as { reqId?: string; msg: string });
    const request = entries.filter((entry) => entry.reqId);
    expect(request.map((entry) => entry.msg)).toEqual(['incoming request', 'request completed']);
    expect(new Set(request.map((entry) => entry.reqId)).size).toBe(1);
  });
});
