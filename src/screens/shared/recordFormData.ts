import type { EntityDescription, JsonSchema } from '../../generated/types.ts';
import type { Row } from './formatValue.ts';

/** The part of a record a form edits: the schema's properties that have a value, minus write-only ones. */
export function recordFormData(record: Row, schema: JsonSchema, entity: EntityDescription): Record<string, unknown> {
  const properties = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  const writeOnly = new Set(entity.fields.filter((field) => field.writeOnly).map((field) => field.name));
  return Object.fromEntries(properties.filter((name) => !writeOnly.has(name) && record[name] !== null && record[name] !== undefined).map((name) => [name, record[name]]));
}
