import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../auth/access.ts';
import type { EntriesPageQuery } from '../audit/answers.ts';
import { actorOf, recordAudit } from '../audit/record.ts';
import { notFound } from '../../http/errors.ts';
import { sendRecord, type ResourceEndpoint } from './endpoint.ts';

/** GET /<resource>/trash: deleted records, newest first, with who deleted them and when; secrets left out. */
export function listTrash(endpoint: ResourceEndpoint) {
  return async (request: FastifyRequest<{ Querystring: EntriesPageQuery }>) => {
    const { page, pageSize } = request.query;
    const { rows, total } = await endpoint.trash.list(
      endpoint.db,
      endpoint.scopeOf(currentUser(request)),
      page,
      pageSize,
    );
    return {
      data: rows.map((row) => ({ ...row, record: endpoint.trail.public(row.record) })),
      meta: { page, pageSize, total },
    };
  };
}

/** POST /<resource>/:id/restore: the deleted record back with its id and the rows that went with it, and its entry. */
export function restoreRecord(endpoint: ResourceEndpoint) {
  return async (request: FastifyRequest<{ Params: { id: number } }>, reply: FastifyReply) => {
    const { id } = request.params;
    await endpoint.write(request, (context) => endpoint.records.restoreDeleted(context, id));
    return sendRecord(reply, await endpoint.load(id, currentUser(request)), `${endpoint.singular} restored.`);
  };
}

/** DELETE /<resource>/:id/permanent: a deleted record out of the trash for good, with its entry. */
export function purgeRecord(endpoint: ResourceEndpoint) {
  return async (request: FastifyRequest<{ Params: { id: number } }>) => {
    const { id } = request.params;
    await endpoint.db.transaction(async (tx) => {
      if (!(await endpoint.trash.purge(tx, id, endpoint.scopeOf(currentUser(request)))))
        throw notFound(`Deleted ${endpoint.singular.toLowerCase()}`);
      await recordAudit(tx, actorOf(request), { module: endpoint.resource.key, recordId: id, action: 'purge' });
    });
    return { data: { id }, message: `${endpoint.singular} deleted permanently.` };
  };
}
