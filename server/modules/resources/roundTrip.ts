import type { Row } from '../../db/database.ts';
import { validationError } from '../../http/errors.ts';
import type { EntityResource } from '../../registry.ts';

type Schema = { properties?: Record<string, unknown> };

const READ_ONLY = 'This field cannot be changed.';

/**
 * A body for a record's update, as a client may send it: the record as GET answered it, changed. A field the update
 * cannot change (its id, version, timestamps, counters, a relation's label) is dropped when it holds what the record
 * holds and refused by name when it differs. Writable fields, and names the record does not have, are left for the
 * update schema to judge.
 */
export function updateBodyFromAnswer(
  resource: EntityResource,
  current: Row,
  body: Record<string, unknown>,
): Record<string, unknown> {
  const writable = (resource.entity.updateSchema as Schema).properties ?? {};
  const kept: Record<string, unknown> = {};
  const refused: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    if (Object.hasOwn(writable, name) || !Object.hasOwn(current, name)) kept[name] = value;
    else if (!sameValue(value, current[name])) refused[name] = READ_ONLY;
  }
  if (Object.keys(refused).length > 0) throw validationError(refused);
  return kept;
}

/**
 * `target` with a JSON Merge Patch (RFC 7396) applied: a member set to null is removed, an object merged member by
 * member, anything else replaces the value.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const merged: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete merged[name];
    else merged[name] = mergePatch(merged[name], value);
  }
  return merged;
}

/**
 * The record's fields an update may give, as GET answers them: an empty one (null) is absent, as a body leaves it, and
 * a write-only one is never answered.
 */
export function writableFields(resource: EntityResource, current: Row): Record<string, unknown> {
  const writable = (resource.entity.updateSchema as Schema).properties ?? {};
  return Object.fromEntries(
    Object.entries(current).filter(([name, value]) => value !== null && Object.hasOwn(writable, name)),
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Whether a value a client sent back is the one the record holds, as its answer spelled it. */
function sameValue(sent: unknown, held: unknown): boolean {
  const answered = (value: unknown) => JSON.stringify(value instanceof Date ? value.toISOString() : (value ?? null));
  if (typeof held === 'number' || typeof held === 'bigint' || typeof sent === 'number')
    return String(sent) === String(held);
  return answered(sent) === answered(held);
}
