import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../auth/access.ts';
import { expectedVersion } from '../../http/recordVersion.ts';
import { sendRecord, type ResourceContext } from './resourceContext.ts';

/** DELETE /<resource>/:id: one record, at the version the caller read. */
export function deleteRecord(resourceContext: ResourceContext) {
  return async (request: FastifyRequest<{ Params: { id: number } }>) => {
    await resourceContext.write(request, (context) =>
      resourceContext.records.remove(context, [request.params.id], expectedVersion(request)),
    );
    return { message: `${resourceContext.singular} deleted.` };
  };
}

/** DELETE /<resource> with `{ ids }`: all of them or none, with an entry for the request besides those of its records. */
export function deleteRecords(resourceContext: ResourceContext) {
  return async (request: FastifyRequest<{ Body: { ids: number[] } }>) => {
    const deleted = await resourceContext.write(request, (context) =>
      resourceContext.records.remove(context, request.body.ids, 'any', { bulk: 'bulk_delete' }),
    );
    return { data: { deleted: deleted.length }, message: `${deleted.length} record(s) deleted.` };
  };
}

/** PATCH /<resource>/:id/status: activates or deactivates one record, at the version the caller read. */
export function setRecordStatus(resourceContext: ResourceContext) {
  return async (
    request: FastifyRequest<{ Params: { id: number }; Body: { is_active: boolean } }>,
    reply: FastifyReply,
  ) => {
    const { id } = request.params;
    const { is_active: isActive } = request.body;
    await resourceContext.write(request, (context) =>
      resourceContext.records.setActive(context, [id], isActive, expectedVersion(request)),
    );
    return sendRecord(
      reply,
      await resourceContext.load(id, currentUser(request)),
      `${resourceContext.singular} ${isActive ? 'activated' : 'deactivated'}.`,
    );
  };
}

/** PATCH /<resource>/status with `{ ids, is_active }`: all of them or none, at whatever version each is at. */
export function setRecordsStatus(resourceContext: ResourceContext) {
  return async (request: FastifyRequest<{ Body: { ids: number[]; is_active: boolean } }>) => {
    const { ids, is_active: isActive } = request.body;
    const updated = await resourceContext.write(request, (context) =>
      resourceContext.records.setActive(context, ids, isActive, 'any', { bulk: 'bulk_status' }),
    );
    return { data: { updated }, message: `${updated} record(s) updated.` };
  };
}
