import type { DataShape } from '../../contract/dataShape.ts';
import { foreignKeyName, uniqueIndexName } from '../../codegen/sqlNames.ts';
import type { Queryable } from './database.ts';

/** How PostgreSQL names the types the manifest's fields are stored as. */
const TYPE_NAMES: Record<string, string> = { timestamptz: 'timestamp with time zone' };

/**
 * Where the database differs from the data shape its applied migrations record: a table, field, unique key or
 * relation missing, or a field of another type (made or changed outside the migrations, by hand or by an older
 * version of the code). Columns the shape does not list (the server's own, kept values) are not its concern.
 */
export async function schemaDifferences(db: Queryable, shape: DataShape): Promise<string[]> {
  const tables = Object.keys(shape.tables);
  const uniqueIndexes = Object.entries(shape.tables).flatMap(([table, { unique }]) =>
    unique.map((key) => ({ name: uniqueIndexName(table, key), table, key })),
  );
  const foreignKeys = Object.entries(shape.tables).flatMap(([table, { columns }]) =>
    Object.entries(columns).flatMap(([field, column]) =>
      column.references ? [{ name: foreignKeyName(table, field), table, field, references: column.references }] : [],
    ),
  );
  // One after the other: inside a transaction, PGlite takes one statement at a time.
  const columns = await db.query<{ table: string; field: string; type: string }>(
    `SELECT c.relname AS table, a.attname AS field, format_type(a.atttypid, a.atttypmod) AS type
       FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND c.relname::text = ANY($1::text[]) AND a.attnum > 0 AND NOT a.attisdropped`,
    [tables],
  );
  const indexes = await db.query<{ name: string }>(
    `SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND indexname::text = ANY($1::text[])`,
    [uniqueIndexes.map(({ name }) => name)],
  );
  const constraints = await db.query<{ name: string }>(
    `SELECT conname AS name FROM pg_constraint WHERE connamespace = current_schema()::regnamespace AND contype = 'f' AND conname::text = ANY($1::text[])`,
    [foreignKeys.map(({ name }) => name)],
  );
  const typeOf = new Map(columns.map((row) => [`${row.table}.${row.field}`, row.type]));
  const existingTables = new Set(columns.map((row) => row.table));
  const found: string[] = [];
  for (const [table, { columns: fields }] of Object.entries(shape.tables)) {
    if (!existingTables.has(table)) {
      found.push(`table ${table} is missing`);
      continue;
    }
    for (const [field, column] of Object.entries(fields)) {
      const type = typeOf.get(`${table}.${field}`);
      const expected = TYPE_NAMES[column.type] ?? column.type;
      if (type === undefined) found.push(`${table}.${field} is missing`);
      else if (type !== expected) found.push(`${table}.${field} is ${type}, not ${expected}`);
    }
  }
  const presentIndexes = new Set(indexes.map((row) => row.name));
  for (const { name, table, key } of uniqueIndexes)
    if (existingTables.has(table) && !presentIndexes.has(name))
      found.push(`the unique key of ${table} (${key.join(', ')}), index ${name}, is missing`);
  const presentConstraints = new Set(constraints.map((row) => row.name));
  for (const { name, table, field, references } of foreignKeys) {
    if (existingTables.has(table) && typeOf.has(`${table}.${field}`) && !presentConstraints.has(name))
      found.push(`the relation of ${table}.${field} to ${references}, constraint ${name}, is missing`);
  }
  return found;
}
