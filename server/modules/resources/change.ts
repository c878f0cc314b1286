import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../auth/access.ts';
import type { SessionUser } from '../auth/session.ts';
import { actorOf, type AuditActor } from '../audit/record.ts';
import { notFound } from '../../http/errors.ts';
import { expectedVersion, type ExpectedVersion } from '../../http/recordVersion.ts';
import { rowChanges } from './auditTrail.ts';
import { sendRecord, type ResourceEndpoint } from './endpoint.ts';

/** DELETE /<resource>/:id: one record, at the version the caller read. */
export function deleteRecord(endpoint: ResourceEndpoint) {
  return async (request: FastifyRequest<{ Params: { id: number } }>) => {
    await remove(endpoint, [request.params.id], currentUser(request), actorOf(request), { expected: expectedVersion(request) });
    return { message: `${endpoint.singular} deleted.` };
  };
}

/** DELETE /<resource> with `{ ids }`: all of them or none. */
export function deleteRecords(endpoint: ResourceEndpoint) {
  return async (request: FastifyRequest<{ Body: { ids: number[] } }>) => {
    const deleted = await remove(endpoint, request.body.ids, currentUser(request), actorOf(request), BULK);
    return { data: { deleted }, message: `${deleted} record(s) deleted.` };
  };
}

/** PATCH /<resource>/:id/status: activates or deactivates one record, at the version the caller read. */
export function setRecordStatus(endpoint: ResourceEndpoint) {
  return async (request: FastifyRequest<{ Params: { id: number }; Body: { is_active: boolean } }>, reply: FastifyReply) => {
    const user = currentUser(request);
    const { id } = request.params;
    await setActive(endpoint, [id], request.body.is_active, user, actorOf(request), { expected: expectedVersion(request) });
    return sendRecord(reply, await endpoint.load(id, user), `${endpoint.singular} ${request.body.is_active ? 'activated' : 'deactivated'}.`);
  };
}

/** PATCH /<resource>/status with `{ ids, is_active }`: all of them or none. */
export function setRecordsStatus(endpoint: ResourceEndpoint) {
  return async (request: FastifyRequest<{ Body: { ids: number[]; is_active: boolean } }>) => {
    const updated = await setActive(endpoint, request.body.ids, request.body.is_active, currentUser(request), actorOf(request), BULK);
    return { data: { updated }, message: `${updated} record(s) updated.` };
  };
}

/**
 * One record's change, at the version its caller read; or several (`BULK`, ids in the body) at whatever version each
 * is at, with an entry for the request itself besides those of its records.
 */
const BULK = 'bulk';
type Target = { expected: ExpectedVersion } | typeof BULK;

/**
 * Deletes the records (into the trash, with soft delete) with one entry each, all in one transaction. The rows'
 * state before the delete comes from the delete statement itself.
 */
async function remove(endpoint: ResourceEndpoint, ids: readonly number[], user: SessionUser, actor: AuditActor, target: Target): Promise<number> {
  const expected = target === BULK ? 'any' : target.expected;
  return endpoint.db.transaction(async (tx) =>
    endpoint.guarded({ kind: 'delete', ids }, { app: endpoint.app, tx, user }, async () => {
      const removed = await endpoint.trash.remove(tx, ids, endpoint.scopeOf(user), expected, actor);
      if (removed.size !== ids.length) throw expected === 'any' ? notFound(endpoint.singular) : await endpoint.missingOrStale(tx, ids[0]!, user);
      await endpoint.behaviour.afterDelete?.(ids, { app: endpoint.app, tx, user });
      await endpoint.trail.record(tx, actor, 'delete', rowChanges(ids, removed, new Map()), target === BULK ? 'bulk_delete' : undefined);
      return removed.size;
    }),
  );
}

async function setActive(endpoint: ResourceEndpoint, ids: readonly number[], isActive: boolean, user: SessionUser, actor: AuditActor, target: Target): Promise<number> {
  const expected = target === BULK ? 'any' : target.expected;
  return endpoint.db.transaction(async (tx) =>
    endpoint.guarded({ kind: 'status', ids, isActive }, { app: endpoint.app, tx, user }, async () => {
      const before = await endpoint.trail.rows(tx, ids, { lock: true });
      const count = await endpoint.table.setActive(tx, ids, isActive, endpoint.scopeOf(user), expected);
      if (count !== ids.length) throw expected === 'any' ? notFound(endpoint.singular) : await endpoint.missingOrStale(tx, ids[0]!, user);
      const after = await endpoint.trail.rows(tx, ids);
      await endpoint.trail.record(tx, actor, 'status', rowChanges(ids, before, after), target === BULK ? 'bulk_status' : undefined);
      return count;
    }),
  );
}
