import type { EntityDescription, JsonSchema } from '../../generated/types.ts';
import type { Row } from './formatValue.ts';

/** The part of a record a form edits: the schema's properties that have a value, minus write-only ones. */
export function recordFormData(record: Row, schema: JsonSchema, entity: EntityDescription): Record<string, unknown> {
  const properties = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  const writeOnly = new Set(entity.fields.filter((field) => field.writeOnly).map((field) => field.name));
  return Object.fromEntries(
    properties
      .filter((name) => !writeOnly.has(name) && record[name] !== null && record[name] !== undefined)
      .map((name) => [name, record[name]]),
  );
}

/** A form's data moved onto a newer read of its record, and what that read changed. */
export interface RebasedFormData {
  data: Record<string, unknown>;
  /** Titles of the fields the newer read changed. */
  changed: string[];
  /** Of those, the ones the user had changed too: their typing is kept, and saving replaces the other change. */
  keptTyped: string[];
}

/**
 * What the user typed, on top of a newer read of the record (three-way, per field): a field the user left as opened
 * takes the newer value, so that saving does not undo someone else's change to it; a field the user changed keeps
 * what they typed.
 */
export function rebaseFormData(
  entity: EntityDescription,
  opened: Record<string, unknown>,
  typed: Record<string, unknown>,
  latest: Record<string, unknown>,
): RebasedFormData {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const edited = new Set(Object.keys((entity.updateSchema.properties as Record<string, unknown> | undefined) ?? {}));
  const data = { ...typed };
  const changed: string[] = [];
  const keptTyped: string[] = [];
  for (const field of entity.fields.filter((candidate) => edited.has(candidate.name))) {
    const { name } = field;
    if (same(opened[name], latest[name])) continue;
    changed.push(field.title);
    if (!same(typed[name], opened[name])) {
      if (!same(typed[name], latest[name])) keptTyped.push(field.title);
    } else if (latest[name] === undefined) {
      delete data[name];
    } else {
      data[name] = latest[name];
    }
  }
  return { data, changed, keptTyped };
}
