import type { FastifyRequest } from 'fastify';
import { currentUser, type Access } from '../auth/access.ts';
import { ENTITY_RESOURCES, type EntityResource } from '../../registry.ts';
import type { ResourceContext } from './resourceContext.ts';

type OptionsQuery = { q?: string; id?: number };

/** GET /<resource>/options: records as `{ value, label }` for the console's pickers. */
export function listOptions(resourceContext: ResourceContext) {
  return async (request: FastifyRequest<{ Querystring: OptionsQuery }>) => ({
    data: await resourceContext.table.options(
      resourceContext.db,
      request.query,
      resourceContext.scopeOf(currentUser(request)),
    ),
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
