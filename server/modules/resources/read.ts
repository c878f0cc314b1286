import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../auth/access.ts';
import { etagOf } from '../../http/recordVersion.ts';
import type { EntityResource } from '../../registry.ts';
import { serializeAnswer, type ResourceContext } from './resourceContext.ts';
import type { ListQuery } from './listSql.ts';

export type ListQueryString = {
  _page: number;
  _page_size: number;
  _sort?: string;
  _order?: 'asc' | 'desc';
  q?: string;
  _columns?: string;
} & Record<string, unknown>;

/** GET /<resource>: a page of records, searched, filtered and sorted. */
export function listRecords(resourceContext: ResourceContext) {
  return async (request: FastifyRequest<{ Querystring: ListQueryString }>, reply: FastifyReply) => {
    const user = currentUser(request);
    const query = listQuery(resourceContext.resource, request.query);
    return resourceContext.sendCached(reply, user, `list ${JSON.stringify(query)}`, async () => {
      const { rows, total } = await resourceContext.listPage(user, query);
      return {
        body: serializeAnswer(reply, { data: rows, meta: { total, page: query.page, page_size: query.pageSize } }),
      };
    });
  };
}

/** GET /<resource>/:id: one record, with its version as the ETag. */
export function showRecord(resourceContext: ResourceContext) {
  return async (request: FastifyRequest<{ Params: { id: number } }>, reply: FastifyReply) => {
    const user = currentUser(request);
    return resourceContext.sendCached(reply, user, `get ${request.params.id}`, async () => {
      const record = await resourceContext.load(request.params.id, user);
      return { body: serializeAnswer(reply, { data: record }), etag: etagOf(Number(record.version)) };
    });
  };
}

export function listQuery(resource: EntityResource, query: ListQueryString): ListQuery {
  const { _page, _page_size, _sort, _order, q, _columns: _ignored, ...filters } = query;
  const sorted = _sort ?? resource.list.sort.field;
  return {
    page: _page,
    pageSize: _page_size,
    sort: sorted,
    order: _order ?? (_sort ? 'asc' : resource.list.sort.direction),
    q: q && q.trim() !== '' ? q.trim() : undefined,
    filters,
  };
}
