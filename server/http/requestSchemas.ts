/**
 * Request schemas several modules' routes share: the record id of a path, a page's query, a file sent as a multipart
 * body, and how a manifest schema becomes the schema a request body is judged by.
 */
import type { JsonSchema } from '../../contract/description.ts';
import { wholeObject } from './answers.ts';

/** The largest integer both JSON and PostgreSQL bigint hold exactly. */
export const MAX_INTEGER = Number.MAX_SAFE_INTEGER;

/**
 * The manifest's write schema as the server applies it: unknown fields are refused (never dropped), and
 * integers without bounds get the range a bigint column holds, so an out-of-range number is a 400, not a
 * database error.
 */
export function writeSchema(schema: JsonSchema): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(([name, property]) => [
      name,
      boundIntegers(property),
    ]),
  );
  return { ...schema, additionalProperties: false, properties };
}

/**
 * The body of a record's update (PUT, and the record a PATCH makes): the write schema, where an optional field also
 * takes null, which empties it (a record as GET answered it holds null for an empty field).
 */
export function updateBodySchema(schema: JsonSchema): JsonSchema {
  const write = writeSchema(schema);
  const required = new Set((write.required ?? []) as string[]);
  const properties = Object.fromEntries(
    Object.entries(write.properties as Record<string, JsonSchema>).map(([name, property]) => [
      name,
      required.has(name) ? property : nullable(property),
    ]),
  );
  return { ...write, properties };
}

function nullable(property: JsonSchema): JsonSchema {
  const { type } = property;
  if (typeof type !== 'string' && !Array.isArray(type)) return property;
  const types = Array.isArray(type) ? (type as string[]) : [type];
  if (types.includes('null')) return property;
  return {
    ...property,
    type: [...types, 'null'],
    ...(Array.isArray(property.enum) ? { enum: [...(property.enum as unknown[]), null] } : {}),
  };
}

function boundIntegers(property: JsonSchema): JsonSchema {
  if (property.type !== 'integer') return property;
  return { minimum: -MAX_INTEGER, maximum: MAX_INTEGER, ...property };
}

/** A record's id as a request gives it: in a path, a query or a body. */
export const recordId = { type: 'integer', minimum: 1, maximum: MAX_INTEGER } as const;

/** Params, a query or a body of exactly these properties, each required: anything else is refused. */
export function exactObject<Properties extends Record<string, JsonSchema>>(
  properties: Properties,
): JsonSchema & { properties: Properties } {
  return wholeObject(properties, { additionalProperties: false });
}

export const idParams = exactObject({ id: recordId });

/** What every paged list takes: the page's number (from 1) and its size. */
export type PageQuery = { _page: number; _page_size: number };

/**
 * The query of a paged list: `_page` (from 1, at most `lastPage`) and `_page_size`, as every list takes them, beside
 * the list's own `filters`. `formerNames`: the list took `page` and `pageSize` before, which are still accepted
 * (with the same limits; `acceptFormerPageNames` hands their values to the handler under the new names) and documented
 * as deprecated.
 */
export function pageQuery(
  sizes: { default: number; maximum: number },
  {
    lastPage = 1_000_000,
    filters = {},
    formerNames = false,
  }: { lastPage?: number; filters?: Record<string, JsonSchema>; formerNames?: boolean } = {},
): JsonSchema {
  const page = { type: 'integer', minimum: 1, maximum: lastPage };
  const size = { type: 'integer', minimum: 1, maximum: sizes.maximum };
  const former = (name: string) => ({ deprecated: true, description: `The former name of \`${name}\`.` });
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      ...filters,
      _page: { ...page, default: 1 },
      _page_size: { ...size, default: sizes.default },
      ...(formerNames ? { page: { ...page, ...former('_page') }, pageSize: { ...size, ...former('_page_size') } } : {}),
    },
  };
}

/** A body of one file sent as `multipart/form-data` under the name `file`, of the content types listed. */
export function multipartFileBody(contentTypes: readonly string[]) {
  return {
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['file'],
          properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
        },
        encoding: { file: { contentType: contentTypes.join(', ') } },
      },
    },
  };
}
