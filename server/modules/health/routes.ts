import type { FastifyInstance, FastifyReply } from 'fastify';
import { pendingMigrations } from '../../db/migrate.ts';

/** A check that has not answered by then counts as failing: a load balancer must not wait on a hung database. */
const CHECK_TIMEOUT_MS = 2000;

type Check = 'database' | 'storage' | 'migrations';

/** The probes' paths, answered by the port during start-up too (server/http/boundPort.ts). */
export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';

export const STOPPING_MESSAGE = 'The server is stopping: send requests to another instance.';

/**
 * `GET /healthz` (the process serves) and `GET /readyz` (database, storage and migrations answer, and the server is
 * not stopping), at the root and outside the console's fallback, for a load balancer.
 */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get(HEALTH_PATH, {
    config: { access: 'public' },
    handler: async (_request, reply) => answer(reply, 200, { status: 'ok' }),
  });

  app.get(READY_PATH, {
    config: { access: 'public' },
    handler: async (_request, reply) => {
      if (app.stopping) return answer(reply, 503, { status: 'stopping', message: STOPPING_MESSAGE });
      const checks = await readiness(app);
      const ready = Object.values(checks).every((value) => value === 'ok');
      return answer(reply, ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', checks });
    },
  });
}

async function readiness(app: FastifyInstance): Promise<Record<Check, string>> {
  const [database, storage, pending] = await Promise.all([within(app.db.query('SELECT 1')), within(app.storage.ready()), within(pendingMigrations(app.db))]);
  return {
    database: database ? 'ok' : 'failing',
    storage: storage ? 'ok' : 'failing',
    migrations: pending === null ? 'failing' : pending.value.length ? 'pending' : 'ok',
  };
}

/** What `work` resolved with, or null when it rejected or did not answer in time. */
async function within<T>(work: Promise<T>): Promise<{ value: T } | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), CHECK_TIMEOUT_MS)));
  try {
    return await Promise.race([work.then((value) => ({ value })), timeout]);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

function answer(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').send(body);
}
