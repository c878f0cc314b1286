import type { EntityResource, RegistryField } from '../registry.ts';

type JsonSchema = Record<string, unknown>;

/** The largest integer both JSON and PostgreSQL bigint hold exactly. */
const MAX_INTEGER = Number.MAX_SAFE_INTEGER;

/**
 * The manifest's write schema as the server applies it: unknown fields are refused (never dropped), and
 * integers without bounds get the range a bigint column holds, so an out-of-range number is a 400, not a
 * database error.
 */
export function writeSchema(schema: JsonSchema): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(([name, property]) => [name, boundIntegers(property)]),
  );
  return { ...schema, additionalProperties: false, properties };
}

function boundIntegers(property: JsonSchema): JsonSchema {
  if (property.type !== 'integer') return property;
  return { minimum: -MAX_INTEGER, maximum: MAX_INTEGER, ...property };
}

export const idParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: MAX_INTEGER } },
} as const;

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

/** Fields a list may sort and filter on: stored, returned, scalar. */
export function listableFields(resource: EntityResource): RegistryField[] {
  return resource.entity.fields.filter((field) => !field.writeOnly && field.type !== 'array' && field.type !== 'object');
}

export function isDateField(field: RegistryField): boolean {
  return field.format === 'date' || field.format === 'date-time';
}

/** The query string of a list (and export): paging, sort, search and the manifest's filters. */
export function listQuerySchema(resource: EntityResource, extra: Record<string, JsonSchema> = {}): JsonSchema {
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

function filterSchema(resource: EntityResource, field: RegistryField): JsonSchema {
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
