/**
 * The request schemas of the generic resource endpoints, from a resource's entity and list (contract/description.ts).
 * The server validates with them and the OpenAPI emitter documents them, so what the document says is what the
 * server accepts.
 */
import type { EntityModel, FieldModel, JsonSchema, ListModel } from './description.ts';
import { readableFields } from './readableFields.ts';

export type { JsonSchema };

/** The largest integer both JSON and PostgreSQL bigint hold exactly. */
export const MAX_INTEGER = Number.MAX_SAFE_INTEGER;

export type ListableField = Pick<FieldModel, 'name' | 'type' | 'format' | 'writeOnly'>;

export interface ListedResource<F extends ListableField = ListableField> {
  entity: Pick<EntityModel, 'createSchema'> & { fields: readonly F[] };
  list: Pick<ListModel, 'filters' | 'pageSize'>;
}

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

/**
 * The request body of an action the manifest gives a form (profile, change password, top-up, subscription): the
 * form's schema as every write schema is applied, so a body is judged by the same rules, and answered with the same
 * messages, as in the console's form.
 *
 * `serverOnly` adds required properties the server needs but no user types, so they are not form fields: a top-up's
 * idempotency key, which the console makes once per dialog and sends beside the form's data. It is the one way a
 * body may differ from its form, and it may only add properties, never loosen or replace the form's.
 */
export function actionBody(form: JsonSchema, serverOnly: Record<string, JsonSchema> = {}): JsonSchema {
  const body = writeSchema(form);
  const names = Object.keys(serverOnly);
  if (names.length === 0) return body;
  const properties = body.properties as Record<string, JsonSchema>;
  const clash = names.find((name) => Object.hasOwn(properties, name));
  if (clash) throw new Error(`"${clash}" is a field of the manifest's form, so it cannot also be a server-only property.`);
  return { ...body, required: [...((body.required ?? []) as string[]), ...names], properties: { ...properties, ...serverOnly } };
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

export const optionsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    q: { type: 'string', maxLength: 100 },
    id: { type: 'integer', minimum: 1, maximum: MAX_INTEGER, description: 'The option of this record only (even if inactive): the label of a value already chosen.' },
  },
} as const;

/** Fields a list may show, sort and filter on and an export may write: read by people, stored, scalar. */
export function listableFields<F extends ListableField>(resource: { entity: { fields: readonly F[] } }): F[] {
  return readableFields(resource.entity.fields).filter((field) => field.type !== 'array' && field.type !== 'object');
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
