import type { FastifyInstance, RouteOptions } from 'fastify';
import { errorAnswers, json } from '../../http/answers.ts';
import { openApiDocument } from './document.ts';

/**
 * The routes of `scope` as they are registered, from now on (an onRoute hook): register it before the routes, and
 * the OpenAPI document is read off them.
 */
export function routeTable(scope: FastifyInstance): readonly RouteOptions[] {
  const routes: RouteOptions[] = [];
  scope.addHook('onRoute', (route) => {
    routes.push(route);
  });
  return routes;
}

/** The API contract at GET /api/v1/openapi.json (docs/api.md), made once, from the routes, at its first request. */
export async function openApiRoutes(
  app: FastifyInstance,
  { routes, base }: { routes: readonly RouteOptions[]; base: string },
): Promise<void> {
  let document: string | null = null;
  app.get('/openapi.json', {
    config: { access: 'public' },
    schema: {
      tags: ['API'],
      operationId: 'getOpenApiDocument',
      summary: 'This document',
      response: {
        200: {
          description: 'The OpenAPI 3.1 document of every route under the base path.',
          content: json({ type: 'object', additionalProperties: true }),
        },
        ...errorAnswers(400),
      },
    },
    handler: async (_request, reply) => {
      document ??= `${JSON.stringify(openApiDocument(routes, base), null, 2)}\n`;
      return reply.type('application/json; charset=utf-8').send(document);
    },
  });
}
