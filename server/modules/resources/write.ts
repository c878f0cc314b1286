import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../auth/access.ts';
import { expectedVersion } from '../../http/recordVersion.ts';
import { sendRecord, type Body, type ResourceContext } from './resourceContext.ts';
import { refusedValue } from './refusedValue.ts';

/** POST /<resource>: a new record, through the record operations. */
export function createRecord(resourceContext: ResourceContext) {
  return async (request: FastifyRequest<{ Body: Body }>, reply: FastifyReply) => {
    const id = await resourceContext
      .write(request, (context) => resourceContext.records.create(context, request.body))
      .catch((error: unknown) =>
        refusedValue(resourceContext.db, request, resourceContext.resource.entity.table, request.body, error),
      );
    reply.code(201);
    return sendRecord(
      reply,
      await resourceContext.load(id, currentUser(request)),
      `${resourceContext.singular} created.`,
    );
  };
}

/** PUT /<resource>/:id: changes the record at the version the caller read (If-Match). */
export function updateRecord(resourceContext: ResourceContext) {
  return async (request: FastifyRequest<{ Params: { id: number }; Body: Body }>, reply: FastifyReply) => {
    const { id } = request.params;
    await resourceContext
      .write(request, (context) => resourceContext.records.update(context, id, request.body, expectedVersion(request)))
      .catch((error: unknown) =>
        refusedValue(resourceContext.db, request, resourceContext.resource.entity.table, request.body, error),
      );
    return sendRecord(
      reply,
      await resourceContext.load(id, currentUser(request)),
      `${resourceContext.singular} updated.`,
    );
  };
}
