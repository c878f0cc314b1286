import type { ColumnShape } from '../../contract/dataShape.ts';

/**
 * How a column's values change type: the USING expression, and, when some values may not convert, the condition
 * that finds them, so the migration refuses naming those rows instead of failing on the first or losing them.
 * Every type reads as text (JSON text for arrays and objects, ISO 8601 for dates and times); text converts to
 * another type by that type's own input rules, which `value_converts` (server migration 008) tries row by row.
 */
export function conversion(column: string, from: string, to: string): { using: string; unconvertible: string | null } {
  const asText =
    from === 'text' ? column : from === 'jsonb' ? `(${column} #>> '{}')` : `(to_jsonb(${column}) #>> '{}')`;
  if (to === 'text') return { using: asText, unconvertible: null };
  if (to === 'jsonb' && from !== 'text') return { using: `to_jsonb(${column})`, unconvertible: null };
  if ((from === 'bigint' && to === 'double precision') || (from === 'date' && to === 'timestamptz'))
    return { using: `${column}::${to}`, unconvertible: null };
  return {
    using: `${asText}::${to}`,
    unconvertible: `${column} IS NOT NULL AND NOT value_converts(${asText}, '${to}')`,
  };
}

/** A value as an SQL literal of the column's type. */
export function sqlLiteral(value: unknown, type: string): string {
  if (value === null || value === undefined) return 'NULL';
  if (type === 'jsonb') return `${quotedText(JSON.stringify(value))}::jsonb`;
  if (type === 'text') return quotedText(typeof value === 'string' ? value : JSON.stringify(value));
  if (
    (typeof value === 'number' && (type === 'bigint' || type === 'double precision')) ||
    (typeof value === 'boolean' && type === 'boolean')
  )
    return String(value);
  return `${quotedText(String(value))}::${type}`;
}

/** Why `value` cannot be stored in the column (its type, its allowed values); null when it can. */
export function unfitValue(value: unknown, column: ColumnShape): string | null {
  const expected: Record<string, string> = {
    bigint: 'an integer',
    'double precision': 'a number',
    boolean: 'true or false',
  };
  const fits =
    column.type === 'bigint'
      ? Number.isInteger(value)
      : column.type === 'double precision'
        ? typeof value === 'number'
        : column.type === 'boolean'
          ? typeof value === 'boolean'
          : column.type === 'jsonb' || typeof value === 'string';
  if (!fits) return `expected ${expected[column.type] ?? 'text'}`;
  if (column.enum && !column.enum.includes(value as string | number))
    return `expected one of ${column.enum.join(', ')}`;
  return null;
}

export function quotedText(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * A guard: refuses the migration when the query lists rows (`refuse_rows`, server migration 008), naming how many,
 * the table, why, and the first ids, with the query that lists them all.
 */
export function refuseRows(table: string, reason: string, rowsQuery: string): string {
  let tag = 'rows';
  while (rowsQuery.includes(`$${tag}$`)) tag = `${tag}_`;
  return `SELECT refuse_rows(${quotedText(table)}, ${quotedText(reason)}, $${tag}$${rowsQuery}$${tag}$);`;
}
