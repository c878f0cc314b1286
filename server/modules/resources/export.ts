import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../auth/access.ts';
import { csvLine } from '../../http/csv.ts';
import { listableFields } from './schemas.ts';
import type { ResourceEndpoint } from './endpoint.ts';
import { listQuery, type ListQueryString } from './read.ts';

const EXPORT_BATCH = 500;
const EXPORT_MAX_ROWS = 1_000_000;

/** GET /<resource>/export: the list as CSV, every page of it, streamed in batches. */
export function exportRecords(endpoint: ResourceEndpoint) {
  const { resource, table } = endpoint;
  return async (request: FastifyRequest<{ Querystring: ListQueryString }>, reply: FastifyReply) => {
    const scope = endpoint.scopeOf(currentUser(request));
    const { page: _page, pageSize: _pageSize, ...listed } = listQuery(resource, request.query);
    const fields = listableFields(resource);
    const wanted = request.query._columns ? request.query._columns.split(',') : resource.list.columns.filter((name) => fields.some((field) => field.name === name));
    const chosen = wanted.map((name) => fields.find((field) => field.name === name)!).filter(Boolean);
    async function* lines(): AsyncGenerator<string> {
      yield csvLine(chosen.map((field) => field.title));
      for await (const rows of table.batches(endpoint.db, listed, scope, EXPORT_BATCH, EXPORT_MAX_ROWS)) {
        yield rows.map((row) => csvLine(chosen.map((field) => (field.relation ? (row[`${field.name}_label`] ?? row[field.name]) : row[field.name])))).join('');
      }
    }
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${resource.api.replace(/\//g, '-')}-${day}.csv"`)
      .send(Readable.from(lines()));
  };
}
