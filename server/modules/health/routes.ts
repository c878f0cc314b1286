import type { FastifyInstance, FastifyReply } from 'fastify';
import { unappliedMigrations } from '../../db/migrate.ts';
import { json, type Answer, wholeObject } from '../../http/answers.ts';

/** A check that has not answered by then counts as failing: a load balancer must not wait on a hung database. */
const CHECK_TIMEOUT_MS = 2000;

type Check = 'database' | 'storage' | 'migrations';

const SERVING: Answer = {
  description: 'The process serves.',
  content: json(wholeObject({ status: { type: 'string', enum: ['ok'] } })),
};
const READINESS = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { type: 'string', enum: ['ready', 'not ready', 'stopping'] },
    message: { type: 'string', description: 'Why, when stopping.' },
    checks: wholeObject({
      database: { type: 'string', enum: ['ok', 'failing'] },
      storage: { type: 'string', enum: ['ok', 'failing'] },
      migrations: { type: 'string', enum: ['ok', 'pending', 'failing'] },
    }),
  },
};

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
    schema: { operationId: 'health', summary: 'Whether the process serves', response: { 200: SERVING } },
    handler: async (_request, reply) => answer(reply, 200, { status: 'ok' }),
  });

  app.get(READY_PATH, {
    config: { access: 'public' },
    schema: {
      operationId: 'readiness',
      summary: 'Whether the database, the file storage and the migrations are ready and the server is not stopping',
      response: {
        200: { description: 'Ready.', content: json(READINESS) },
        503: { description: 'Not ready: the failing check is named; or stopping.', content: json(READINESS) },
      },
    },
    handler: async (_request, reply) => {
      if (app.stopping) return answer(reply, 503, { status: 'stopping', message: STOPPING_MESSAGE });
      const checks = await readiness(app);
      const ready = Object.values(checks).every((value) => value === 'ok');
      return answer(reply, ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', checks });
    },
  });
}

async function readiness(app: FastifyInstance): Promise<Record<Check, string>> {
  const [database, storage, pending] = await Promise.all([
    within(app.db.query('SELECT 1')),
    within(app.storage.ready()),
    within(unappliedMigrations(app.db)),
  ]);
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
