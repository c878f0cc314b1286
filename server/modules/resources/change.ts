import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../auth/access.ts';
import type { SessionUser } from '../auth/session.ts';
import { notFound } from '../../http/errors.ts';
import { expectedVersion, type ExpectedVersion } from '../../http/recordVersion.ts';
import { sendRecord, type ResourceEndpoint } from './endpoint.ts';

/** DELETE /<resource>/:id: one record, at the version the caller read. */
export function deleteRecord(endpoint: ResourceEndpoint) {
  return async (request: FastifyRequest<{ Params: { id: number } }>) => {
    await remove(endpoint, [request.params.id], currentUser(request), expectedVersion(request));
    return { message: `${endpoint.singular} deleted.` };
  };
}

/** DELETE /<resource> with `{ ids }`: all of them or none. */
export function deleteRecords(endpoint: ResourceEndpoint) {
  return async (request: FastifyRequest<{ Body: { ids: number[] } }>) => {
    const deleted = await remove(endpoint, request.body.ids, currentUser(request));
    return { data: { deleted }, message: `${deleted} record(s) deleted.` };
  };
}

/** PATCH /<resource>/:id/status: activates or deactivates one record, at the version the caller read. */
export function setRecordStatus(endpoint: ResourceEndpoint) {
  return async (request: FastifyRequest<{ Params: { id: number }; Body: { is_active: boolean } }>, reply: FastifyReply) => {
    const user = currentUser(request);
    const { id } = request.params;
    await setActive(endpoint, [id], request.body.is_active, user, expectedVersion(request));
    return sendRecord(reply, await endpoint.load(id, user), `${endpoint.singular} ${request.body.is_active ? 'activated' : 'deactivated'}.`);
  };
}

/** PATCH /<resource>/status with `{ ids, is_active }`: all of them or none. */
export function setRecordsStatus(endpoint: ResourceEndpoint) {
  return async (request: FastifyRequest<{ Body: { ids: number[]; is_active: boolean } }>) => {
    const updated = await setActive(endpoint, request.body.ids, request.body.is_active, currentUser(request));
    return { data: { updated }, message: `${updated} record(s) updated.` };
  };
}

async function remove(endpoint: ResourceEndpoint, ids: readonly number[], user: SessionUser, expected: ExpectedVersion = 'any'): Promise<number> {
  return endpoint.db.transaction(async (tx) =>
    endpoint.guarded({ kind: 'delete', ids }, { app: endpoint.app, tx, user }, async () => {
      const removed = await endpoint.table.remove(tx, ids, endpoint.scopeOf(user), expected);
      if (removed !== ids.length) throw expected === 'any' ? notFound(endpoint.singular) : await endpoint.missingOrStale(tx, ids[0]!, user);
      await endpoint.behaviour.afterDelete?.(ids, { app: endpoint.app, tx, user });
      return removed;
    }),
  );
}

async function setActive(endpoint: ResourceEndpoint, ids: readonly number[], isActive: boolean, user: SessionUser, expected: ExpectedVersion = 'any'): Promise<number> {
  return endpoint.db.transaction(async (tx) =>
    endpoint.guarded({ kind: 'status', ids, isActive }, { app: endpoint.app, tx, user }, async () => {
      const count = await endpoint.table.setActive(tx, ids, isActive, endpoint.scopeOf(user), expected);
      if (count !== ids.length) throw expected === 'any' ? notFound(endpoint.singular) : await endpoint.missingOrStale(tx, ids[0]!, user);
      return count;
    }),
  );
}
