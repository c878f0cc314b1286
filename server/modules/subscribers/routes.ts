import type { FastifyInstance } from 'fastify';
import { idParams } from '../../http/requestSchemas.ts';
import { currentUser, permission } from '../auth/access.ts';
import { errorAnswers } from '../../http/answers.ts';
import { MODULE, entityResource, resource } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import type { Scope } from '../../db/sqlParams.ts';
import { pointsBalance } from './points.ts';
import { EXECUTIVE_SCOPE, IN_FORCE, SUBSCRIPTION_STATE, planLabelSql, subscriberRouteParts } from './routeParts.ts';
import { executiveSubscribersQuery } from './schemas.ts';
import { executiveAssignment, subscriberScope } from '../auth/executiveScope.ts';

/** Subscriber detail: the summary, the points ledger, an executive's subscribers; selling is in saleRoutes.ts. */
export async function subscriberRoutes(app: FastifyInstance): Promise<void> {
  const subscribers = entityResource(MODULE.subscribers);
  if (!subscribers) return;
  const { db } = app;
  const { table, can, answers, tags, loadSubscriber, allowedActions } = subscriberRouteParts(app, subscribers);
  const planLabel = planLabelSql();
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
      const [subscription] = await db.query(
        `SELECT s.*, ${planLabel} AS plan_label, ${IN_FORCE} AS is_current, ${SUBSCRIPTION_STATE} AS state
           FROM subscriber_subscriptions s WHERE s.subscriber_id = $1
          ORDER BY ${IN_FORCE} DESC, s.is_trial, s.starts_on DESC, s.id DESC LIMIT 1`,
        [request.params.id],
      );
      const [paid] = await db.query<{ total: number }>(
        'SELECT coalesce(sum(amount), 0) AS total FROM payments WHERE subscriber_id = $1',
        [request.params.id],
      );
      return {
        data: {
          subscriber,
          subscription: subscription ?? null,
          points_balance: await pointsBalance(db, request.params.id),
          paid_total: paid?.total ?? 0,
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
      const data = await db.query(
        'SELECT id, kind, points, amount, balance_after, note, created_at FROM points_ledger WHERE subscriber_id = $1 ORDER BY id DESC LIMIT 500',
        [request.params.id],
      );
      return { data };
    },
  });

  const executives = executiveAssignment();
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
        const assigned: Scope = (params) => {
          if (!executives) return 'false';
          if (executives.via) return `t.${quoted(executives.field)} = ${params.add(id)}`;
          const profiles = entityResource(MODULE.executiveProfile);
          const userField = profiles?.entity.fields.find((candidate) => candidate.relation?.resource === MODULE.users);
          if (!profiles || !userField) return 'false';
          return `t.${quoted(executives.field)} = (SELECT ${quoted(userField.name)} FROM ${quoted(profiles.entity.table)} WHERE id = ${params.add(id)})`;
        };
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
