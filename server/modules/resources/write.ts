import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../auth/access.ts';
import { expectedVersion } from '../../http/recordVersion.ts';
import { sendRecord, type Body, type ResourceEndpoint } from './endpoint.ts';
import { refusedValue } from './refusedValue.ts';

/** POST /<resource>: a new record, through the record operations. */
export function createRecord(endpoint: ResourceEndpoint) {
  return async (request: FastifyRequest<{ Body: Body }>, reply: FastifyReply) => {
    const id = await endpoint
      .write(request, (context) => endpoint.records.create(context, request.body))
      .catch((error: unknown) =>
        refusedValue(endpoint.db, request, endpoint.resource.entity.table, request.body, error),
      );
    reply.code(201);
    return sendRecord(reply, await endpoint.load(id, currentUser(request)), `${endpoint.singular} created.`);
  };
}

/** PUT /<resource>/:id: changes the record at the version the caller read (If-Match). */
export function updateRecord(endpoint: ResourceEndpoint) {
  return async (request: FastifyRequest<{ Params: { id: number }; Body: Body }>, reply: FastifyReply) => {
    const { id } = request.params;
    await endpoint
      .write(request, (context) => endpoint.records.update(context, id, request.body, expectedVersion(request)))
      .catch((error: unknown) =>
        refusedValue(endpoint.db, request, endpoint.resource.entity.table, request.body, error),
      );
    return sendRecord(reply, await endpoint.load(id, currentUser(request)), `${endpoint.singular} updated.`);
  };
}
