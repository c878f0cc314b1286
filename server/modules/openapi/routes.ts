import type { FastifyInstance } from 'fastify';
import { emitOpenApi } from '../../../codegen/emit/openapi.ts';
import { ACTIONS } from '../../../codegen/vocabulary.ts';
import { describeProject } from '../../../contract/description.ts';
import { DESCRIPTION } from '../../registry.ts';

/** The API contract, made from the generated description as the server starts (docs/api.md). */
export function openApiDocument(): string {
  return emitOpenApi(describeProject(DESCRIPTION, ACTIONS));
}

/** The API contract, at GET /api/v1/openapi.json (docs/api.md). */
export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  const document = openApiDocument();
  app.get('/openapi.json', {
    config: { access: 'public' },
    handler: async (_request, reply) => reply.type('application/json; charset=utf-8').send(document),
  });
}
