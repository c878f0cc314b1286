import type { SessionUser } from '../auth/session.ts';
import type { Queryable } from '../../db/database.ts';
import { SqlParams } from '../../db/sqlParams.ts';
import { ENTITY_RESOURCES, type EntityResource } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import type { RecordOperations } from '../resources/recordOperations.ts';
import { optionLabelField } from '../resources/relations.ts';
import { likeLiteral, searchTerms } from '../resources/searchTerms.ts';

/**
 * The fewest characters a search takes: the trigram index finds records by 3 characters or more. With 2, every row
 * of a resource is read to find a rare pair (1.1 s for "zq" in 100,000 subscribers on PGlite, against 0.04 s for "zqx").
 */
export const SEARCH_MIN_LENGTH = 3;
export const SEARCH_MAX_LENGTH = 100;
/** Records answered per resource by default, and at most. */
export const SEARCH_DEFAULT_LIMIT = 5;
export const SEARCH_MAX_LIMIT = 20;
/**
 * Matching records read per resource before the best are picked: the ranking sorts at most these, so a common
 * fragment ("com" in 100,000 e-mail addresses) costs no more than a rare one.
 */
const CANDIDATES_PER_RESOURCE = 200;

export interface FoundRecord {
  id: number;
  label: string;
  /** What tells it from records with a like label: its resource's `describe` parts that have a value. */
  details: string[];
}

export interface FoundResource {
  resource: string;
  label: string;
  records: FoundRecord[];
}

/** The resources a search looks in: stored ones the manifest gives a list search, which offer a view. */
export const SEARCHABLE_RESOURCES: readonly EntityResource[] = ENTITY_RESOURCES.filter(
  (resource) => resource.searchSql !== null && resource.actions.includes('view'),
);

/**
 * The records of every resource the caller may view whose search text (the list search's expression, which the
 * trigram index covers) contains `q`, within each resource's scope, grouped by resource in manifest order. A
 * record whose label starts with `q` comes first, then the shorter label. One statement for all resources.
 */
export async function searchRecords(
  db: Queryable,
  records: RecordOperations,
  user: SessionUser,
  q: string,
  limit: number,
): Promise<FoundResource[]> {
  const viewable = SEARCHABLE_RESOURCES.filter((resource) => user.grants.can(resource.key, 'view'));
  if (viewable.length === 0) return [];
  const { sql, values } = searchStatement(viewable, records, user, q, limit);
  const rows = await db.query<{ resource: number; id: number; label: string; details: (string | null)[] }>(sql, values);
  return viewable
    .map((resource, index) => ({
      resource: resource.key,
      label: resource.label,
      records: rows
        .filter((row) => Number(row.resource) === index)
        .map(({ id, label, details }) => ({ id: Number(id), label, details: describeParts(resource, details) })),
    }))
    .filter((group) => group.records.length > 0);
}

/** The one statement of a search: a branch per resource, its rows tagged with the resource's place in `resources`. */
function searchStatement(
  resources: readonly EntityResource[],
  records: RecordOperations,
  user: SessionUser,
  q: string,
  limit: number,
): { sql: string; values: unknown[] } {
  const params = new SqlParams();
  const lowered = q.toLowerCase();
  const contains = params.add(likeLiteral(lowered));
  const prefix = params.add(lowered);
  const perResource = params.add(limit);
  const selects = resources.map((resource, index) => {
    const label = `t.${quoted(optionLabelField(resource))}`;
    const details = resource.describe.flat().map((field) => `t.${quoted(field)}::text`);
    // The terms a list search of the resource matches (a mobile number in its stored form too), LIKE wildcards literal.
    const [, ...others] = searchTerms(resource, lowered);
    const matches = [contains, ...others.map((term) => params.add(likeLiteral(term)))].map(
      (term) => `${resource.searchSql} LIKE '%' || ${term} || '%'`,
    );
    const conditions = [matches.length === 1 ? matches[0]! : `(${matches.join(' OR ')})`];
    const scope = records.of(resource).scopeOf(user);
    if (scope) conditions.push(scope(params));
    return `(SELECT ${index} AS resource, c.id, c.label, c.details,
          row_number() OVER (ORDER BY starts_with(lower(c.label), ${prefix}) DESC, length(c.label), c.label, c.id) AS rank
        FROM (
          SELECT t.id, coalesce(${label}::text, t.id::text) AS label, ARRAY[${details.join(', ')}]::text[] AS details FROM ${quoted(resource.entity.table)} t
           WHERE ${conditions.join(' AND ')} LIMIT ${CANDIDATES_PER_RESOURCE}
        ) c ORDER BY rank LIMIT ${perResource})`;
  });
  // The branches inside a FROM, so that one branch alone (a role that views one resource) still takes the ORDER BY.
  return {
    sql: `SELECT * FROM (${selects.join('\nUNION ALL\n')}) found ORDER BY resource, rank`,
    values: params.values,
  };
}

/**
 * A found record's second line: the values of its resource's `describe` fields (read in one flat array), each part's
 * values joined by spaces, an enum's by its label; parts without a value left out.
 */
function describeParts(resource: EntityResource, values: readonly (string | null)[]): string[] {
  let next = 0;
  return resource.describe
    .map((part) =>
      part
        .map((name) => {
          const value = values[next++];
          const enumLabels = resource.entity.fields.find((field) => field.name === name)?.enumLabels;
          return value === null || value === undefined || value === '' ? null : (enumLabels?.[value] ?? value);
        })
        .filter((value) => value !== null)
        .join(' '),
    )
    .filter(Boolean);
}
