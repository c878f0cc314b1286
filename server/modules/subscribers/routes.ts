import type { FastifyInstance } from 'fastify';
import { idParams } from '../../http/requestSchemas.ts';
import { currentUser, permission } from '../auth/access.ts';
import { errorAnswers } from '../../http/answers.ts';
import { MODULE, entityResource, resource } from '../../registry.ts';
import type { Scope } from '../../db/sqlParams.ts';
import { pointsBalance, pointsLedger } from './points.ts';
import { currentSubscription, paidTotal } from './subscriberSummary.ts';
import { EXECUTIVE_SCOPE, subscriberRouteParts } from './routeParts.ts';
import { executiveSubscribersQuery } from './schemas.ts';
import { assignedToExecutive, subscriberScope } from '../auth/executiveScope.ts';

/** Subscriber detail: the summary, the points ledger, an executive's subscribers; selling is in saleRoutes.ts. */
export async function subscriberRoutes(app: FastifyInstance): Promise<void> {
  const subscribers = entityResource(MODULE.subscribers);
  if (!subscribers) return;
  const { db } = app;
  const { table, can, answers, tags, loadSubscriber, allowedActions } = subscriberRouteParts(app, subscribers);
  app.get<{ Params: { id: number } }>('/subscribers/:id/summary', {
    config: { access: can('SUBSCRIBER_DETAIL') },
    schema: {
      tags,
      operationId: 'getSubscriberSummary',
      summary: 'A subscriber with the subscription in force (else the latest), the points balance and the total paid',
      description: `${EXECUTIVE_SCOPE} \`can\` says which of the subscriber's actions the caller's routes would accept.`,
      params: idParams,
      response: { 200: answers.summary, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const user = currentUser(request);
      const subscriber = await loadSubscriber(request.params.id, user);
      return {
        data: {
          subscriber,
          subscription: (await currentSubscription(db, request.params.id)) ?? null,
          points_balance: await pointsBalance(db, request.params.id),
          paid_total: await paidTotal(db, request.params.id),
          can: allowedActions(user),
        },
      };
    },
  });

  app.get<{ Params: { id: number } }>('/subscribers/:id/ledger', {
    config: { access: can('SUBSCRIBER_DETAIL') },
    schema: {
      tags,
      operationId: 'getSubscriberLedger',
      summary: "A subscriber's points ledger",
      description: `Newest first, at most 500 entries. ${EXECUTIVE_SCOPE}`,
      params: idParams,
      response: { 200: answers.ledger, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request) => {
      await loadSubscriber(request.params.id, currentUser(request));
      const data = await pointsLedger(db, request.params.id);
      return { data };
    },
  });

  app.get<{ Params: { id: number }; Querystring: { _page: number; _page_size: number } }>(
    '/executives/:id/subscribers',
    {
      config: { access: permission(MODULE.executiveProfile, 'view_detail') },
      schema: {
        tags: [resource(MODULE.executiveProfile)?.label ?? subscribers.label],
        operationId: 'listExecutiveSubscribers',
        summary: 'The subscribers assigned to an executive',
        params: idParams,
        querystring: executiveSubscribersQuery,
        response: { 200: answers.assigned, ...errorAnswers(400, 401, 403) },
      },
      handler: async (request) => {
        const { id } = request.params;
        const own = subscriberScope(currentUser(request));
        const assigned = assignedToExecutive(id);
        const scope: Scope = (params) => (own ? `${assigned(params)} AND ${own(params)}` : assigned(params));
        const { _page: page, _page_size: pageSize } = request.query;
        const { rows, total } = await table.list(
          db,
          {
            page,
            pageSize,
            sort: subscribers.list.sort.field,
            order: subscribers.list.sort.direction,
            q: undefined,
            filters: {},
          },
          scope,
        );
        return { data: rows, meta: { total, page, page_size: pageSize } };
      },
    },
  );
}
