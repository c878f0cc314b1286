/**
 * Request schemas several modules' routes share: the record id of a path, and how a manifest schema becomes the
 * schema a request body is judged by.
 */
import type { JsonSchema } from '../../contract/description.ts';

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
