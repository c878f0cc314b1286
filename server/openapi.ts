import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';

const OPENAPI = new URL('./generated/openapi.json', import.meta.url);

/** The generated API contract, at GET /api/v1/openapi.json (docs/api.md). */
export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  const document = await readFile(OPENAPI, 'utf8');
  app.get('/openapi.json', {
    config: { access: 'public' },
    handler: async (_request, reply) => reply.type('application/json; charset=utf-8').send(document),
  });
}
