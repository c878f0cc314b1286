import { createHash } from 'node:crypto';

/** PostgreSQL cuts longer identifiers to 63 bytes (NAMEDATALEN - 1), so two long names could silently become one. */
const MAX_IDENTIFIER_BYTES = 63;

/**
 * The unique index of a key, and the constraint a clash names: `lookups_lookup_type_id_code_key`. A name over 63
 * bytes keeps its start and ends in a hash of the whole name, so it stays distinct and is the name PostgreSQL reports.
 * (Table and field names are ASCII, by the manifest schema's patterns.)
 */
export function uniqueIndexName(table: string, fields: readonly string[]): string {
  const name = `${table}_${fields.join('_')}_key`;
  if (name.length <= MAX_IDENTIFIER_BYTES) return name;
  const suffix = `_${createHash('sha256').update(name).digest('hex').slice(0, 8)}_key`;
  return `${name.slice(0, MAX_IDENTIFIER_BYTES - suffix.length)}${suffix}`;
}
