import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../auth/access.ts';
import { entriesPageMeta } from '../audit/answers.ts';
import type { PageQuery } from '../../http/requestSchemas.ts';
import { actorOf, recordAudit } from '../audit/record.ts';
import { notFound } from '../../http/errors.ts';
import { sendRecord, type ResourceContext } from './resourceContext.ts';

/** GET /<resource>/trash: deleted records, newest first, with who deleted them and when; secrets left out. */
export function listTrash(resourceContext: ResourceContext) {
  return async (request: FastifyRequest<{ Querystring: PageQuery }>) => {
    const { _page: page, _page_size: pageSize } = request.query;
    const { rows, total } = await resourceContext.trash.list(
      resourceContext.db,
      resourceContext.scopeOf(currentUser(request)),
      page,
      pageSize,
    );
    return {
      data: rows.map((row) => ({ ...row, record: resourceContext.trail.public(row.record) })),
      meta: entriesPageMeta(request.query, total),
    };
  };
}

/** POST /<resource>/:id/restore: the deleted record back with its id and the rows that went with it, and its entry. */
export function restoreRecord(resourceContext: ResourceContext) {
  return async (request: FastifyRequest<{ Params: { id: number } }>, reply: FastifyReply) => {
    const { id } = request.params;
    await resourceContext.write(request, (context) => resourceContext.records.restoreDeleted(context, id));
    return sendRecord(
      reply,
      await resourceContext.load(id, currentUser(request)),
      `${resourceContext.singular} restored.`,
    );
  };
}

/** DELETE /<resource>/:id/permanent: a deleted record out of the trash for good, with its entry. */
export function purgeRecord(resourceContext: ResourceContext) {
  return async (request: FastifyRequest<{ Params: { id: number } }>) => {
    const { id } = request.params;
    await resourceContext.db.transaction(async (tx) => {
      if (!(await resourceContext.trash.purge(tx, id, resourceContext.scopeOf(currentUser(request)))))
        throw notFound(`Deleted ${resourceContext.singular.toLowerCase()}`);
      await recordAudit(tx, actorOf(request), { module: resourceContext.resource.key, recordId: id, action: 'purge' });
    });
    return { data: { id }, message: `${resourceContext.singular} deleted permanently.` };
  };
}
