import type { FastifyRequest } from 'fastify';
import { currentUser, type Access } from '../auth/access.ts';
import { SqlParams, type Scope } from '../../db/sqlParams.ts';
import { ENTITY_RESOURCES, type EntityResource } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import type { ResourceContext } from './resourceContext.ts';
import { optionLabelField } from './relations.ts';

/** How many options one search answers; the console's pickers search as the user types rather than page. */
const OPTIONS_PAGE = 50;

type OptionsQuery = { q?: string; id?: number };

/** GET /<resource>/options: records as `{ value, label }` for the console's pickers. */
export function listOptions(resourceContext: ResourceContext) {
  return async (request: FastifyRequest<{ Querystring: OptionsQuery }>) => ({
    data: await options(resourceContext, request.query, resourceContext.scopeOf(currentUser(request))),
  });
}

/** Options for selects: view of the resource itself, or any permission on a resource that relates to it. */
export function optionsAccess(resource: EntityResource): Access {
  const relating = ENTITY_RESOURCES.filter((candidate) =>
    candidate.entity.fields.some((field) => field.relation?.resource === resource.key),
  );
  return {
    anyOf: [{ module: resource.key, action: 'view' }, ...relating.map((candidate) => ({ module: candidate.key }))],
  };
}

/**
 * Active records whose label contains `q` (the first OPTIONS_PAGE by label), or the one record `id` whatever its
 * state; within the caller's scope, like every other read.
 */
async function options(
  resourceContext: ResourceContext,
  query: OptionsQuery,
  scope: Scope | null,
): Promise<Array<{ value: number; label: string }>> {
  const label = `t.${quoted(optionLabelField(resourceContext.resource))}`;
  const params = new SqlParams();
  const conditions: string[] = [];
  if (query.id !== undefined) {
    conditions.push(`t.id = ${params.add(query.id)}`);
  } else {
    conditions.push('t.is_active');
    const needle = (query.q ?? '')
      .trim()
      .toLowerCase()
      .replace(/[\\%_]/g, (character) => `\\${character}`);
    if (needle) conditions.push(`lower(${label}::text) LIKE '%' || ${params.add(needle)} || '%'`);
  }
  if (scope) conditions.push(scope(params));
  return resourceContext.db.query(
    `SELECT t.id AS value, coalesce(${label}::text, t.id::text) AS label FROM ${resourceContext.table.table} t
      WHERE ${conditions.join(' AND ')} ORDER BY ${label}, t.id LIMIT ${OPTIONS_PAGE}`,
    params.values,
  );
}
