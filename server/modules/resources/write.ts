import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../auth/access.ts';
import { forbidden } from '../../http/errors.ts';
import { actorOf } from '../audit/record.ts';
import type { AuditAction } from '../../../contract/audit.ts';
import { expectedVersion, type ExpectedVersion } from '../../http/recordVersion.ts';
import { MODULE, type EntityResource } from '../../registry.ts';
import { sendRecord, type Body, type ResourceEndpoint } from './endpoint.ts';
import { refusedValue } from './refusedValue.ts';

/** POST /<resource>: a new record, its behaviour's preparation and follow-up in the same transaction. */
export function createRecord(endpoint: ResourceEndpoint) {
  const { app, resource, table, behaviour } = endpoint;
  return async (request: FastifyRequest<{ Body: Body }>, reply: FastifyReply) => {
    const user = currentUser(request);
    let values: Record<string, unknown> = {};
    const id = await endpoint.db.transaction(async (tx) => {
      const context = { app, tx, user };
      values = await columnValues(app, resource, request.body);
      await behaviour.prepare?.(values, request.body, { ...context, id: null });
      const created = await table.insert(tx, values);
      if (!(await table.visible(tx, [created], endpoint.scopeOf(user)))) throw forbidden(resource.key, 'add records outside your assignment');
      await behaviour.afterCreate?.(created, request.body, context);
      const after = await endpoint.trail.rows(tx, [created]);
      await endpoint.trail.record(tx, actorOf(request), 'create', [{ id: created, before: null, after: after.get(created) ?? null }]);
      return created;
    }).catch((error: unknown) => refusedValue(endpoint.db, request, resource.entity.table, values, error));
    reply.code(201);
    return sendRecord(reply, await endpoint.load(id, user), `${endpoint.singular} created.`);
  };
}

/** PUT /<resource>/:id: changes the record at the version the caller read (If-Match). */
export function updateRecord(endpoint: ResourceEndpoint) {
  return async (request: FastifyRequest<{ Params: { id: number }; Body: Body }>, reply: FastifyReply) => {
    const { id } = request.params;
    await applyUpdate(endpoint, request, id, request.body, expectedVersion(request), 'update');
    return sendRecord(reply, await endpoint.load(id, currentUser(request)), `${endpoint.singular} updated.`);
  };
}

/**
 * An update of one record as the caller asked it (PUT) or as a version of its history held it (restore): the
 * behaviour's guard and preparation, the write at the expected version, and its entry, in one transaction.
 */
export async function applyUpdate(
  endpoint: ResourceEndpoint,
  request: FastifyRequest,
  id: number,
  body: Body,
  expected: ExpectedVersion,
  action: Extract<AuditAction, 'update' | 'restore_version'>,
  details?: Record<string, unknown>,
): Promise<void> {
  const { app, resource, table, behaviour, trail } = endpoint;
  const user = currentUser(request);
  let values: Record<string, unknown> = {};
  await endpoint.db.transaction(async (tx) => {
    const context = { app, tx, user };
    await endpoint.guarded({ kind: 'update', id, body }, context, async () => {
      values = await columnValues(app, resource, body);
      await behaviour.prepare?.(values, body, { ...context, id });
      const before = await trail.rows(tx, [id], { lock: true });
      if (!(await table.update(tx, id, values, endpoint.scopeOf(user), expected))) throw await endpoint.missingOrStale(tx, id, user);
      if (!(await table.visible(tx, [id], endpoint.scopeOf(user)))) throw forbidden(resource.key, 'move records outside your assignment');
      await behaviour.afterUpdate?.(id, body, context);
      const after = await trail.rows(tx, [id]);
      await trail.record(tx, actorOf(request), action, [{ id, before: before.get(id) ?? null, after: after.get(id) ?? null }], undefined, details);
    });
  }).catch((error: unknown) => refusedValue(endpoint.db, request, resource.entity.table, values, error));
}

/** The stored columns of a validated body: confirmations dropped, JSON fields serialised, passwords hashed. */
async function columnValues(app: FastifyInstance, resource: EntityResource, body: Body): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  const properties = (resource.entity.createSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const field of resource.entity.fields) {
    if (field.system || field.readOnly || !(field.name in body)) continue;
    const value = body[field.name];
    if (field.writeOnly) {
      // A confirmation is never stored; a user's password is stored as its hash by the USERS behaviour.
      if (properties[field.name]?.compareTo !== undefined || resource.key === MODULE.users) continue;
      if (field.format === 'password' && typeof value === 'string') {
        values[field.name] = await app.passwords.hash(value);
        continue;
      }
    }
    values[field.name] = field.type === 'array' || field.type === 'object' ? JSON.stringify(value) : value;
  }
  return values;
}
