import type { FastifyInstance, FastifySchema } from 'fastify';
import { permission } from '../auth/access.ts';
import { errorAnswers } from '../../http/answers.ts';
import { bulkDelete, bulkSetField, bulkSetStatus } from './bulkByFilter.ts';
import {
  bulkAnswer,
  bulkDeleteByFilterBody,
  bulkSetBody,
  bulkStatusByFilterBody,
  matchQuerySchema,
} from './bulkSchemas.ts';
import type { ResourceContext } from './resourceContext.ts';

type About = (operationId: string, summary: string, description?: string) => FastifySchema;

const BY_FILTER =
  "Every record the list shows for this search and these filters (the list's query string), within the caller's scope, in one transaction; `expected_count` is the count the caller confirmed (409 with the count now when it differs).";

/** "All matching" changes of a resource: status, delete and setting a field, each behind the permission of its single form. */
export function registerBulkRoutes(app: FastifyInstance, resourceContext: ResourceContext, about: About): void {
  const { resource } = resourceContext;
  const base = `/${resource.api}/bulk`;
  const plural = resource.typeName;
  const several = resource.label.toLowerCase();
  const querystring = matchQuerySchema(resource);
  const response = { 200: bulkAnswer, ...errorAnswers(400, 401, 403, 409) };
  if (resource.actions.includes('ACTIVE_INACTIVE')) {
    app.post(`${base}/status`, {
      config: { access: permission(resource.key, 'ACTIVE_INACTIVE'), audit: { action: 'bulk_status' } },
      schema: {
        ...about(`bulkSet${plural}StatusByFilter`, `Activate or deactivate all matching ${several}`, BY_FILTER),
        querystring,
        body: bulkStatusByFilterBody,
        response,
      },
      handler: bulkSetStatus(resourceContext),
    });
  }
  if (resource.actions.includes('delete')) {
    app.post(`${base}/delete`, {
      config: { access: permission(resource.key, 'delete'), audit: { action: 'bulk_delete' } },
      schema: {
        ...about(`bulkDelete${plural}ByFilter`, `Delete all matching ${several}`, BY_FILTER),
        querystring,
        body: bulkDeleteByFilterBody,
        response,
      },
      handler: bulkDelete(resourceContext),
    });
  }
  if (resource.actions.includes('edit') && resource.list.bulkEdit.length > 0) {
    app.post(`${base}/set`, {
      config: { access: permission(resource.key, 'edit'), audit: { action: 'bulk_update' } },
      schema: {
        ...about(
          `bulkSet${plural}Field`,
          `Set a field of all matching ${several}`,
          `${BY_FILTER} The fields the manifest allows (\`list.bulkEdit\`); \`value\` is judged by the field's schema (400 on the field).`,
        ),
        querystring,
        body: bulkSetBody(resource),
        response,
      },
      handler: bulkSetField(resourceContext),
    });
  }
}
