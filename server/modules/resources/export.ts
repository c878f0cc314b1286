import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../auth/access.ts';
import { csvLine, sendCsvFile } from '../../http/csv.ts';
import type { FieldModel } from '../../../contract/description.ts';
import { listableFields } from './schemas.ts';
import type { ResourceContext } from './resourceContext.ts';
import { listQuery, type ListQueryString } from './read.ts';

const EXPORT_BATCH = 500;
const EXPORT_MAX_ROWS = 1_000_000;

/** GET /<resource>/export: the list as CSV, every page of it, streamed in batches. */
export function exportRecords(resourceContext: ResourceContext) {
  const { resource, table } = resourceContext;
  return async (request: FastifyRequest<{ Querystring: ListQueryString }>, reply: FastifyReply) => {
    const scope = resourceContext.scopeOf(currentUser(request));
    const { page: _page, pageSize: _pageSize, ...listed } = listQuery(resource, request.query);
    const fields = listableFields(resource);
    const wanted = request.query._columns
      ? request.query._columns.split(',')
      : resource.list.columns.filter((name) => fields.some((field) => field.name === name));
    const columns = wanted.flatMap((name) => {
      const field = fields.find((candidate) => candidate.name === name);
      return field ? csvColumns(field) : [];
    });
    async function* lines(): AsyncGenerator<string> {
      yield csvLine(columns.map((column) => column.title));
      for await (const rows of table.batches(resourceContext.db, listed, scope, EXPORT_BATCH, EXPORT_MAX_ROWS)) {
        yield rows.map((row) => csvLine(columns.map((column) => column.value(row)))).join('');
      }
    }
    const day = new Date().toISOString().slice(0, 10);
    return sendCsvFile(reply, `${resource.api.replace(/\//g, '-')}-${day}.csv`, lines());
  };
}

interface CsvColumn {
  title: string;
  value: (row: Record<string, unknown>) => unknown;
}

/**
 * A field's columns in an export, for people first: a relation as the related record's label, an enum as its label
 * followed by its code (for tools that match on codes), anything else as stored.
 */
function csvColumns(field: FieldModel): CsvColumn[] {
  const { name, title, relation, enumLabels } = field;
  if (relation) return [{ title, value: (row) => row[`${name}_label`] ?? row[name] }];
  if (enumLabels) {
    const label = (row: Record<string, unknown>) =>
      row[name] === null || row[name] === undefined ? null : (enumLabels[String(row[name])] ?? row[name]);
    return [
      { title, value: label },
      { title: `${title} code`, value: (row) => row[name] },
    ];
  }
  return [{ title, value: (row) => row[name] }];
}
