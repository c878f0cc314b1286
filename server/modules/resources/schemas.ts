/**
 * The request schemas of the generic resource endpoints, from a resource's entity and list (contract/description.ts):
 * the routes validate with them and the OpenAPI document prints them as the routes declare them.
 */
import type { EntityModel, FieldModel, JsonSchema, ListModel } from '../../../contract/description.ts';
import { MAX_INTEGER } from '../../http/requestSchemas.ts';

export type ListableField = Pick<FieldModel, 'name' | 'type' | 'format' | 'writeOnly'>;

export interface ListedResource<F extends ListableField = ListableField> {
  entity: Pick<EntityModel, 'createSchema'> & { fields: readonly F[] };
  list: Pick<ListModel, 'filters' | 'pageSize'>;
}

export const idsBody = {
  type: 'object',
  additionalProperties: false,
  required: ['ids'],
  properties: { ids: { type: 'array', minItems: 1, maxItems: 500, uniqueItems: true, items: { type: 'integer', minimum: 1, maximum: MAX_INTEGER } } },
} as const;

export const statusBody = {
  type: 'object',
  additionalProperties: false,
  required: ['is_active'],
  properties: { is_active: { type: 'boolean' } },
} as const;

export const bulkStatusBody = {
  type: 'object',
  additionalProperties: false,
  required: ['ids', 'is_active'],
  properties: { ids: idsBody.properties.ids, is_active: { type: 'boolean' } },
} as const;

export const optionsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    q: { type: 'string', maxLength: 100 },
    id: { type: 'integer', minimum: 1, maximum: MAX_INTEGER, description: 'The option of this record only (even if inactive): the label of a value already chosen.' },
  },
} as const;

/** Fields a list may sort and filter on: stored, returned, scalar. */
export function listableFields<F extends ListableField>(resource: { entity: { fields: readonly F[] } }): F[] {
  return resource.entity.fields.filter((field) => !field.writeOnly && field.type !== 'array' && field.type !== 'object');
}

export function isDateField(field: { format: string | null }): boolean {
  return field.format === 'date' || field.format === 'date-time';
}

/** The query string of a list (and export): paging, sort, search and the manifest's filters. */
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
  for (const name of resource.list.filters) {
    const field = listable.find((candidate) => candidate.name === name);
    if (!field) continue;
    if (isDateField(field)) {
      properties[`${name}_from`] = { type: 'string', format: field.format };
      properties[`${name}_to`] = { type: 'string', format: field.format };
    }
    properties[name] = filterSchema(resource, field);
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

function filterSchema(resource: ListedResource, field: ListableField): JsonSchema {
  const authored = ((resource.entity.createSchema.properties ?? {}) as Record<string, JsonSchema>)[field.name];
  if (Array.isArray(authored?.enum)) return { type: field.type, enum: authored.enum };
  switch (field.type) {
    case 'integer':
      return { type: 'integer', minimum: -MAX_INTEGER, maximum: MAX_INTEGER };
    case 'number':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    default:
      return field.format ? { type: 'string', format: field.format, maxLength: 200 } : { type: 'string', maxLength: 200 };
  }
}
