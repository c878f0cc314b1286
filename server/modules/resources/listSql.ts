/**
 * The SQL pieces a resource's list is made of, which the table's statements (sql.ts) put together: the list's
 * condition (search, filters, scope) on alias `t`, and the label of each relation field, joined.
 */
import { quoted } from '../../../codegen/sqlNames.ts';
import { EMPTY_SUFFIX, FROM_SUFFIX, splitValues, TO_SUFFIX } from '../../../contract/listFilters.ts';
import type { SqlParams, Scope } from '../../db/sqlParams.ts';
import type { EntityResource, RegistryField } from '../../registry.ts';
import { listFilters } from './schemas.ts';
import { likeLiteral, searchTerms } from './searchTerms.ts';

export interface ListQuery {
  page: number;
  pageSize: number;
  sort: string;
  order: 'asc' | 'desc';
  q: string | undefined;
  filters: Record<string, unknown>;
}

/** The list's search and filters, and the caller's scope, as conditions on alias `t`. */
export function listConditions(
  resource: EntityResource,
  params: SqlParams,
  query: Pick<ListQuery, 'q' | 'filters'>,
  scope: Scope | null,
): string[] {
  const conditions: string[] = [];
  if (query.q && resource.searchSql) {
    // The same expression the trigram index covers, so the index applies (for each term, ORed).
    const matches = searchTerms(resource, query.q).map(
      (term) => `${resource.searchSql} LIKE '%' || lower(${params.add(likeLiteral(term))}) || '%'`,
    );
    conditions.push(matches.length === 1 ? matches[0]! : `(${matches.join(' OR ')})`);
  }
  conditions.push(...filterConditions(resource, params, query.filters));
  if (scope) conditions.push(scope(params));
  return conditions;
}

/**
 * The manifest's filters as conditions (schemas.ts `listQuerySchema` judged the values): several values as one
 * `= ANY` of the column's own type, so the column's index applies; a day as the end of a date-time range covers it
 * all; `_empty` as IS NULL (or an empty text).
 */
function filterConditions(resource: EntityResource, params: SqlParams, filters: ListQuery['filters']): string[] {
  const conditions: string[] = [];
  const given = (key: string) => (filters[key] === undefined || filters[key] === '' ? undefined : filters[key]);
  for (const { field, kind, multiple } of listFilters(resource)) {
    const column = `t.${quoted(field.name)}`;
    const value = given(field.name);
    if (value !== undefined && multiple) {
      const values = splitValues(String(value));
      conditions.push(
        values.length === 1
          ? `${column} = ${params.add(values[0])}`
          : `${column} = ANY(${params.add(values)}::${field.sqlType}[])`,
      );
    } else if (value !== undefined) {
      conditions.push(`${column} = ${params.add(value)}`);
    }
    if (kind === 'date') {
      const from = given(`${field.name}${FROM_SUFFIX}`);
      const to = given(`${field.name}${TO_SUFFIX}`);
      const wholeDay = (day: unknown) => field.format === 'date-time' && String(day).length === 10;
      if (from !== undefined) conditions.push(`${column} >= ${params.add(from)}${wholeDay(from) ? '::date' : ''}`);
      if (to !== undefined)
        conditions.push(wholeDay(to) ? `${column} < ${params.add(to)}::date + 1` : `${column} <= ${params.add(to)}`);
    }
    const empty = given(`${field.name}${EMPTY_SUFFIX}`);
    if (empty !== undefined) {
      const isEmpty = field.type === 'string' ? `(${column} IS NULL OR ${column} = '')` : `${column} IS NULL`;
      conditions.push(empty === true || empty === 'true' ? isEmpty : `NOT ${isEmpty}`);
    }
  }
  return conditions;
}

/** The label column of each relation field (`plan_id_label`), read from the join `labelJoins` makes. */
export function labelColumns(relations: readonly RegistryField[]): string {
  return relations
    .map(
      (field) =>
        `, ${quoted(`r_${field.name}`)}.${quoted(field.relation!.labelField)} AS ${quoted(`${field.name}_label`)}`,
    )
    .join('');
}

/** The related records of the rows aliased `alias`, one LEFT JOIN per relation field. */
export function labelJoins(relations: readonly RegistryField[], alias: string): string {
  return relations
    .map(
      (field) =>
        `LEFT JOIN ${quoted(field.relation!.table)} ${quoted(`r_${field.name}`)} ON ${quoted(`r_${field.name}`)}.id = ${alias}.${quoted(field.name)}`,
    )
    .join(' ');
}
