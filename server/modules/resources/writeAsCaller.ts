import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorOf } from '../audit/record.ts';
import { currentUser } from '../auth/access.ts';
import type { WriteContext } from './behaviours.ts';

/** Runs `write` in one transaction, with the request's caller as the operations' user and the entries' actor. */
export function writeAsCaller<T>(
  app: FastifyInstance,
  request: FastifyRequest,
  write: (context: WriteContext) => Promise<T>,
): Promise<T> {
  const user = currentUser(request);
  return app.db.transaction((tx) => write({ app, tx, user, actor: actorOf(request) }));
}
