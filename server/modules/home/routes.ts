import type { FastifyInstance } from 'fastify';
import { currentUser } from '../auth/access.ts';
import { errorAnswers } from '../../http/answers.ts';
import { ResponseCache } from '../resources/responseCache.ts';
import { homeCards } from './cards.ts';
import { homeAnswer } from './schemas.ts';

/** The home screen a user lands on after signing in: figures of the lists their role may open. */
export async function homeRoutes(app: FastifyInstance): Promise<void> {
  const sources = { db: app.db, records: app.records, figures: new ResponseCache(1024 * 1024) };
  app.get('/home', {
    // Every signed-in user may ask; each card is answered only with the permission of the list it links to.
    config: { access: 'signed-in' },
    schema: {
      tags: ['Home'],
      operationId: 'getHome',
      summary: "The caller's home screen",
      description:
        'Expiring subscriptions, open trials, new subscribers and revenue this month against last, the upload queue and failures, the last upload per country and direction, recent changes: those the caller may see.',
      response: { 200: homeAnswer, ...errorAnswers(401) },
    },
    handler: async (request) => ({ data: { cards: await homeCards(sources, currentUser(request), new Date()) } }),
  });
}
