/**
 * The request schemas of the generic resource endpoints, from a resource's entity and list (contract/description.ts):
 * the routes validate with them and the OpenAPI document prints them as the routes declare them.
 */
import type { EntityModel, FieldModel, JsonSchema, ListModel } from '../../../contract/description.ts';
import { MAX_INTEGER, exactObject, recordId } from '../../http/requestSchemas.ts';
import { readableFields } from '../../../contract/readableFields.ts';
import {
  EMPTY_SUFFIX,
  FROM_SUFFIX,
  listFilterModels,
  TO_SUFFIX,
  VALUE_SEPARATOR,
  type ListFilterModel,
} from '../../../contract/listFilters.ts';

export type ListableField = Pick<
  FieldModel,
  'name' | 'type' | 'format' | 'writeOnly' | 'enum' | 'required' | 'system' | 'relation'
>;

export interface ListedResource<F extends ListableField = ListableField> {
  entity: Pick<EntityModel, 'createSchema'> & { fields: readonly F[] };
  list: Pick<ListModel, 'filters' | 'pageSize'>;
}

export const idsBody = exactObject({
  ids: { type: 'array', minItems: 1, maxItems: 500, uniqueItems: true, items: recordId },
});

export const statusBody = exactObject({ is_active: { type: 'boolean' } });

export const bulkStatusBody = exactObject({ ids: idsBody.properties.ids, is_active: { type: 'boolean' } });

export const optionsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    q: { type: 'string', maxLength: 100 },
    id: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_INTEGER,
      description: 'The option of this record only (even if inactive): the label of a value already chosen.',
    },
  },
} as const;

/** Fields a list may show, sort and filter on and an export may write: read by people, stored, scalar. */
export function listableFields<F extends ListableField>(resource: { entity: { fields: readonly F[] } }): F[] {
  return readableFields(resource.entity.fields).filter((field) => field.type !== 'array' && field.type !== 'object');
}

/** The manifest's filters of a list, among the fields it may filter on. */
export function listFilters<F extends ListableField>(resource: {
  entity: { fields: readonly F[] };
  list: Pick<ListModel, 'filters'>;
}): ListFilterModel<F>[] {
  return listFilterModels(listableFields(resource), resource.list.filters);
}

/**
 * The query string of a list (and export): paging, sort, search and the manifest's filters. An enum or a relation
 * takes several values separated by commas; a date a range, from and to (a day, or a moment for a date-time); a field
 * that may be empty `<field>_empty` (true: is empty, false: is not).
 */
export function listQuerySchema(resource: ListedResource, extra: Record<string, JsonSchema> = {}): JsonSchema {
  const listable = listableFields(resource);
  const properties: Record<string, JsonSchema> = {
    _page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
    _page_size: { type: 'integer', minimum: 1, maximum: 100, default: resource.list.pageSize },
    _sort: { type: 'string', enum: listable.map((field) => field.name) },
    _order: { type: 'string', enum: ['asc', 'desc'] },
    q: { type: 'string', maxLength: 200 },
    ...extra,
  };
  for (const filter of listFilters(resource)) {
    const { field } = filter;
    if (filter.kind === 'date') {
      const day =
        field.format === 'date' ? { format: 'date' } : { anyOf: [{ format: 'date' }, { format: 'date-time' }] };
      properties[`${field.name}${FROM_SUFFIX}`] = { type: 'string', ...day };
      properties[`${field.name}${TO_SUFFIX}`] = { type: 'string', ...day };
    }
    properties[field.name] = filterSchema(resource, filter);
    if (filter.emptiable)
      properties[`${field.name}${EMPTY_SUFFIX}`] = {
        type: 'boolean',
        description: `true: ${field.name} is empty; false: it is not.`,
      };
  }
  return { type: 'object', additionalProperties: false, properties };
}

/** The export's query string: the list's, with `_columns` naming the listable fields to write. */
export function exportQuerySchema(resource: ListedResource): JsonSchema {
  const columns = listableFields(resource).map((field) => field.name);
  return listQuerySchema(resource, {
    _columns: { type: 'string', maxLength: 2000, pattern: `^(?:${columns.join('|')})(?:,(?:${columns.join('|')}))*$` },
  });
}

/** Several values: each one of `alternatives` (a regular expression), separated by commas. */
function valueList(alternatives: string, description: string): JsonSchema {
  return {
    type: 'string',
    maxLength: 2000,
    pattern: `^(?:${alternatives})(?:${VALUE_SEPARATOR}(?:${alternatives}))*$`,
    description,
  };
}

function filterSchema(resource: ListedResource, filter: ListFilterModel<ListableField>): JsonSchema {
  const { field } = filter;
  const authored = ((resource.entity.createSchema.properties ?? {}) as Record<string, JsonSchema>)[field.name];
  if (filter.kind === 'relation') return valueList('[1-9][0-9]{0,15}', 'One id, or several separated by commas.');
  const values = Array.isArray(authored?.enum) ? (authored.enum as unknown[]) : field.enum;
  if (filter.kind === 'choice' && values) {
    return valueList(
      values.map((value) => String(value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
      `One of ${values.join(', ')}, or several separated by commas.`,
    );
  }
  switch (field.type) {
    case 'integer':
      return { type: 'integer', minimum: -MAX_INTEGER, maximum: MAX_INTEGER };
    case 'number':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    default:
      return field.format
        ? { type: 'string', format: field.format, maxLength: 200 }
        : { type: 'string', maxLength: 200 };
  }
}
