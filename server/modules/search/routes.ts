import type { FastifyInstance } from 'fastify';
import { currentUser } from '../auth/access.ts';
import { errorAnswers } from '../../http/answers.ts';
import { searchAnswer, searchQuery } from './schemas.ts';
import { searchRecords } from './search.ts';

/** Go anywhere: records of every resource the caller may view, found by their search text (docs/api.md, "Search"). */
export async function searchRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Querystring: { q: string; limit: number } }>('/search', {
    // Each resource's own view permission and scope decide what is found, so any signed-in caller may ask.
    config: { access: 'signed-in' },
    schema: {
      tags: ['Search'],
      operationId: 'searchRecords',
      summary: 'Find records across resources',
      description:
        'In each resource with a list search that the caller may view, within its scope: the records whose search text contains `q`, those whose label starts with it first; at most `limit` per resource.',
      querystring: searchQuery,
      response: { 200: searchAnswer, ...errorAnswers(400, 401) },
    },
    handler: async (request) => ({
      data: await searchRecords(app.db, app.records, currentUser(request), request.query.q.trim(), request.query.limit),
    }),
  });
}
