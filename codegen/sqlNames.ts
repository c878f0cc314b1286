/**
 * Every SQL identifier the codegen's migrations and the server derive or quote, named once: both import this file
 * (it depends on nothing of either), so a table, index or search expression the migrations make is the one the server uses.
 */

/** PostgreSQL cuts longer identifiers to 63 bytes (NAMEDATALEN - 1), so two long names could silently become one. */
const MAX_IDENTIFIER_BYTES = 63;

/**
 * `name` when it fits in 63 bytes; otherwise its start, then a hash of the whole name and `ending`, so it stays
 * distinct and is the name PostgreSQL reports. (Table and field names are ASCII, by the manifest schema's patterns.)
 */
function fitted(name: string, ending: string): string {
  if (name.length <= MAX_IDENTIFIER_BYTES) return name;
  // Loaded only for a name too long to keep: loading node:crypto costs every `generate` a few per cent of its time.
  const { createHash } = process.getBuiltinModule('node:crypto');
  const suffix = `_${createHash('sha256').update(name).digest('hex').slice(0, 8)}${ending}`;
  return `${name.slice(0, MAX_IDENTIFIER_BYTES - suffix.length)}${suffix}`;
}

/** The unique index of a key, and the constraint a clash names: `lookups_lookup_type_id_code_key`. */
export function uniqueIndexName(table: string, fields: readonly string[]): string {
  return fitted(`${table}_${fields.join('_')}_key`, '_key');
}

/** The foreign key of a relation field, as PostgreSQL names it when it fits: `vouchers_plan_id_fkey`. */
export function foreignKeyName(table: string, field: string): string {
  return fitted(`${table}_${field}_fkey`, '_fkey');
}

/** The index of a relation field, which deleting the related record searches. */
export function relationIndexName(table: string, field: string): string {
  return fitted(`${table}_${field}_idx`, '_idx');
}

/** The trigram index over a list's search expression. */
export function searchIndexName(table: string): string {
  return fitted(`${table}_search_idx`, '_idx');
}

/** The index of a list's default sort, with id after the field. */
export function sortIndexName(table: string, field: string): string {
  return fitted(`${table}_${field}_sort_idx`, '_sort_idx');
}

/** Where a migration keeps the values of a removed table or of a table's removed fields: `vouchers_removed_0003`. */
export function removedValuesTableName(table: string, migrationNumber: string): string {
  return fitted(`${table}_removed_${migrationNumber}`, `_removed_${migrationNumber}`);
}

/** A table's primary key index, renamed with the table so that a new table of the old name can have its own. */
export function primaryKeyName(table: string): string {
  return fitted(`${table}_pkey`, '_pkey');
}

/** An identifier quoted for SQL (a table, column, index or trigger name): `"vouchers"`, `"a""b"`. */
export function quoted(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/** A resource's table when the manifest names none: VOUCHER → voucher, COMPANY_EMPLOYEE_CONTACTS → company_employee_contacts. */
export function tableName(resourceKey: string): string {
  return resourceKey.toLowerCase();
}

/** The text a list search matches: the searchable columns joined, lowercased. The trigram index covers this same expression. */
export function searchExpression(fields: readonly string[]): string {
  return `lower(${fields.map((field) => `coalesce(${quoted(field)}, '')`).join(` || ' ' || `)})`;
}
