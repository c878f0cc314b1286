import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import { HEALTH_PATH, READY_PATH } from '../modules/health/routes.ts';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * The server's port, taken before the start-up work (migrations, demo data, the console build), so a second start
 * on a port in use stops before it opens or changes anything. Until `serve()` every request is answered 503.
 */
export interface BoundPort {
  /** Fastify's `serverFactory`: the app adopts this listening server instead of creating its own. */
  serverFactory: FastifyServerFactory;
  /** From now on every request goes to the app (call it once the app is ready). */
  serve(): void;
  /**
   * A stop begins: requests are still answered, each on a connection then closed (`Connection: close`), so a client or
   * proxy sends its next request on a new connection, which the balancer, seeing `/readyz` fail, gives another instance.
   */
  drain(): void;
  /** Stops accepting connections and waits for the open ones to finish. */
  close(): Promise<void>;
}

export class PortUnavailable extends Error {
  constructor(port: number, host: string, cause: NodeJS.ErrnoException) {
    super(
      cause.code === 'EADDRINUSE'
        ? `Port ${port} on ${host} is already in use (another server, or another program, listens there); nothing was changed. Stop it, or set PORT to a free port.`
        : `Cannot listen on ${host}:${port} (${cause.code ?? cause.message}); nothing was changed. Set PORT and HOST to an address this user may listen on.`,
      { cause },
    );
    this.name = 'PortUnavailable';
  }
}

const CLOSE_IDLE_EVERY_MS = 100;

export const STARTING_MESSAGE = 'The server is starting; try again in a moment.';

export async function bindPort(port: number, host: string): Promise<BoundPort> {
  let app: Handler | null = null;
  let handle: Handler = answerStarting;
  let draining = false;
  const server: Server = createServer((request, response) => {
    if (draining) response.setHeader('connection', 'close');
    handle(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(new PortUnavailable(port, host, error)));
    server.listen({ port, host }, resolve);
  });
  return {
    serverFactory: (handler, options) => {
      app = handler;
      // What Fastify sets on a server it creates itself.
      server.keepAliveTimeout = options.keepAliveTimeout as number;
      server.requestTimeout = options.requestTimeout as number;
      server.setTimeout(options.connectionTimeout as number);
      return server;
    },
    serve() {
      if (!app) throw new Error('serve() before the app adopted the port');
      handle = app;
    },
    drain() {
      draining = true;
    },
    // No new connection is taken; a kept-alive connection is closed as soon as it has no request in flight, so every
    // request already accepted is answered and the promise settles when the last one is.
    close: () =>
      new Promise((resolve) => {
        const idle = setInterval(() => server.closeIdleConnections(), CLOSE_IDLE_EVERY_MS);
        server.close(() => {
          clearInterval(idle);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}

/** A page that reloads itself for a browser opening the console during start-up; JSON for the API's callers. */
const STARTING_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta http-equiv="refresh" content="3"><title>Starting</title></head><body style="font-family:system-ui,sans-serif;margin:2rem"><main><h1 style="font-size:1.25rem">${STARTING_MESSAGE}</h1><p>This page reloads by itself.</p></main></body></html>`;

function answerStarting(request: IncomingMessage, response: ServerResponse): void {
  const path = request.url?.split('?')[0];
  // A load balancer's probes: the process is up, not ready (the same exact paths the app answers later).
  if (request.method === 'GET' && path === HEALTH_PATH) return answerJson(response, 200, { status: 'ok' });
  if (request.method === 'GET' && path === READY_PATH)
    return answerJson(response, 503, { status: 'starting', message: STARTING_MESSAGE });
  const page = request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
  response.writeHead(503, {
    'content-type': page ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8',
    'retry-after': '5',
    'cache-control': 'no-store',
  });
  response.end(page ? STARTING_PAGE : JSON.stringify({ message: STARTING_MESSAGE }));
}

function answerJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...(status === 503 ? { 'retry-after': '5' } : {}),
  });
  response.end(JSON.stringify(body));
}
