import { createServer, type Server } from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../testing/serverProcess.ts';
import { bindPort, PortUnavailable, STARTING_MESSAGE, type BoundPort } from './boundPort.ts';

const opened: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.close();
});

async function bound(port: number): Promise<BoundPort> {
  const taken = await bindPort(port, '127.0.0.1');
  opened.push(taken);
  return taken;
}

describe('the port taken before start-up', () => {
  it('answers 503 while the app starts, then hands every request to the app', async () => {
    const port = await freePort();
    const taken = await bound(port);
    const starting = await fetch(`http://127.0.0.1:${port}/api/v1/user/permission`);
    expect(starting.status).toBe(503);
    expect(starting.headers.get('retry-after')).toBe('5');
    expect(await starting.json()).toEqual({ message: STARTING_MESSAGE });
    const page = await fetch(`http://127.0.0.1:${port}/auth/login`, {
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    expect(page.status).toBe(503);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain(`<meta http-equiv="refresh" content="3"><title>Starting</title>`);

    const app = Fastify({ serverFactory: taken.serverFactory });
    app.get('/api/v1/ping', async () => ({ data: 'pong' }));
    opened.push({ close: () => app.close() });
    await app.ready();
    taken.serve();
    const ready = await fetch(`http://127.0.0.1:${port}/api/v1/ping`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ data: 'pong' });
  });

  it('answers the load balancer during start-up: /healthz 200, /readyz 503, both JSON; other spellings get the starting answer', async () => {
    const port = await freePort();
    await bound(port);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { accept: 'text/html' } });
    expect(health.status).toBe(200);
    expect(health.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(health.headers.get('cache-control')).toBe('no-store');
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`http://127.0.0.1:${port}/readyz?probe=1`, { headers: { accept: 'text/html' } });
    expect(ready.status).toBe(503);
    expect(ready.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(await ready.json()).toEqual({ status: 'starting', message: STARTING_MESSAGE });
    for (const path of ['/%68ealthz', '//healthz', '/HEALTHZ']) {
      const odd = await fetch(`http://127.0.0.1:${port}${path}`);
      expect(odd.status, path).toBe(503);
      expect(await odd.json(), path).toEqual({ message: STARTING_MESSAGE });
    }
  });

  it('refuses a port in use with a message naming it', async () => {
    const port = await freePort();
    const other: Server = createServer();
    await new Promise<void>((resolve) => other.listen(port, '127.0.0.1', resolve));
    opened.push({ close: () => new Promise((resolve) => other.close(() => resolve())) });

    const error = await bindPort(port, '127.0.0.1').catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(PortUnavailable);
    expect((error as Error).message).toBe(
      `Port ${port} on 127.0.0.1 is already in use (another server, or another program, listens there); nothing was changed. Stop it, or set PORT to a free port.`,
    );
  });

  it('refuses serve() before the app adopted the port', async () => {
    const taken = await bound(await freePort());
    expect(() => taken.serve()).toThrow('serve() before the app adopted the port');
  });
});
