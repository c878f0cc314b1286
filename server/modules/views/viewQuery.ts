import {
  EMPTY_SUFFIX,
  filterAddressKeys,
  isDatePreset,
  RANGE_SUFFIX,
  splitValues,
  VALUE_SEPARATOR,
} from '../../../contract/listFilters.ts';
import type { EntityResource } from '../../registry.ts';
import { listableFields, listFilters } from '../resources/schemas.ts';

/** A list's query as the console's address holds it: `q`, `sort` (`-` first when descending), `size`, `columns` and filters. */
export type ViewQuery = Record<string, string>;

export interface CheckedQuery {
  query: ViewQuery;
  /** What the manifest no longer has, as people read it: a key, a column, a sort field, a value (`status: trial`). */
  dropped: string[];
}

/**
 * A view's query checked against the manifest as it is now: what the list no longer has (a filter, a column, a sort
 * field, an enum value) is left out and named, so a view saved before a manifest change still opens.
 */
export function checkViewQuery(resource: EntityResource, stored: ViewQuery): CheckedQuery {
  const fields = new Set(listableFields(resource).map((field) => field.name));
  const filters = listFilters(resource);
  const filterOfKey = new Map(
    filters.flatMap((filter) => filterAddressKeys(filter).map((key) => [key, filter] as const)),
  );
  const query: ViewQuery = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(stored)) {
    if (typeof value !== 'string' || value === '') continue;
    if (key === 'q') query.q = value;
    else if (key === 'size') {
      const size = Number(value);
      if (Number.isInteger(size) && size >= 1 && size <= 100) query.size = String(size);
      else dropped.push(`size: ${value}`);
    } else if (key === 'sort') {
      if (fields.has(value.replace(/^-/, ''))) query.sort = value;
      else dropped.push(value.replace(/^-/, ''));
    } else if (key === 'columns') {
      const columns = splitValues(value);
      const kept = columns.filter((name) => fields.has(name));
      dropped.push(...columns.filter((name) => !fields.has(name)));
      if (kept.length > 0) query.columns = kept.join(VALUE_SEPARATOR);
    } else {
      const filter = filterOfKey.get(key);
      const kept = filter ? keptValue(key, value, filter.field.enum) : null;
      if (kept === null) dropped.push(key);
      else {
        if (kept.value !== '') query[key] = kept.value;
        dropped.push(...kept.dropped.map((gone) => `${key}: ${gone}`));
      }
    }
  }
  return { query, dropped };
}

/** A filter's value with the enum values the field no longer has left out; null when the value means nothing. */
function keptValue(
  key: string,
  value: string,
  values: readonly (string | number)[] | null,
): { value: string; dropped: string[] } | null {
  if (key.endsWith(EMPTY_SUFFIX)) return value === 'true' || value === 'false' ? { value, dropped: [] } : null;
  if (key.endsWith(RANGE_SUFFIX)) return isDatePreset(value) ? { value, dropped: [] } : null;
  if (!values) return { value, dropped: [] };
  const known = new Set(values.map(String));
  const given = splitValues(value);
  return {
    value: given.filter((one) => known.has(one)).join(VALUE_SEPARATOR),
    dropped: given.filter((one) => !known.has(one)),
  };
}
