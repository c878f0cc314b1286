import type { FastifyInstance } from 'fastify';
import { idParams } from '../../http/requestSchemas.ts';
import { currentUser, permission } from '../auth/access.ts';
import { errorAnswers } from '../../http/answers.ts';
import type { SessionUser } from '../auth/session.ts';
import { actionBodySchema } from '../../http/actionBody.ts';
import { notFound, validationError } from '../../http/errors.ts';
import { MODULE, entityResource, field, firstField, quoted, relationTo, resource, type EntityResource } from '../../registry.ts';
import type { Scope } from '../../db/sqlParams.ts';
import { recordSchema } from '../resources/answers.ts';
import { ResourceTable } from '../resources/sql.ts';
import { addLedgerEntry, pointsBalance } from './points.ts';
import { TOP_UP_SERVER_ONLY, executiveSubscribersQuery, subscriberAnswers } from './schemas.ts';
import { executiveAssignment, subscriberScope } from '../auth/executiveScope.ts';
import { actorOf, recordAudit } from '../audit/record.ts';
import { writeAsCaller } from '../resources/recordOperations.ts';

/** Subscriber detail, subscriptions and top-ups (SUBSCRIBER_DETAIL, ADD_SUBSCRIPTION, ADD_TOP_UP). */
export async function subscriberRoutes(app: FastifyInstance): Promise<void> {
  const subscribers = entityResource(MODULE.subscribers);
  if (!subscribers) return;
  const { db } = app;
  const table = new ResourceTable(subscribers);
  const can = (action: string) => permission(MODULE.subscribers, action);
  const answers = subscriberAnswers(recordSchema(subscribers));
  const tags = [subscribers.label];
  const executiveScope = 'An executive (`executive_access`) reaches only the subscribers assigned to them.';

  const loadSubscriber = async (id: number, user: SessionUser) => {
    const row = await table.get(db, id, subscriberScope(user));
    if (!row) throw notFound(subscribers.singular);
    return row;
  };

  const planLabel = planLabelSql(subscribers);
  app.get<{ Params: { id: number } }>('/subscribers/:id/summary', {
    config: { access: can('SUBSCRIBER_DETAIL') },
    schema: {
      tags,
      operationId: 'getSubscriberSummary',
      summary: 'A subscriber with the latest subscription and the points balance',
      description: executiveScope,
      params: idParams,
      response: { 200: answers.summary, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const subscriber = await loadSubscriber(request.params.id, currentUser(request));
      const [subscription] = await db.query(
        `SELECT s.*, ${planLabel.column} AS plan_label,
                CASE WHEN s.ends_on IS NULL OR s.ends_on >= current_date THEN true ELSE false END AS is_current
           FROM subscriber_subscriptions s ${planLabel.join} WHERE s.subscriber_id = $1 ORDER BY s.starts_on DESC, s.id DESC LIMIT 1`,
        [request.params.id],
      );
      return { data: { subscriber, subscription: subscription ?? null, points_balance: await pointsBalance(db, request.params.id) } };
    },
  });

  app.get<{ Params: { id: number } }>('/subscribers/:id/ledger', {
    config: { access: can('SUBSCRIBER_DETAIL') },
    schema: {
      tags,
      operationId: 'getSubscriberLedger',
      summary: 'A subscriber\'s points ledger',
      description: `Newest first, at most 500 entries. ${executiveScope}`,
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

  app.post<{ Params: { id: number }; Body: { plan_id: number; starts_on: string } }>('/subscribers/:id/subscriptions', {
    config: { access: can('ADD_SUBSCRIPTION'), audit: { action: 'subscribe' } },
    schema: {
      tags,
      operationId: 'addSubscription',
      summary: 'Add a subscription',
      description: `${MODULE.subscribers}'s form \`ADD_SUBSCRIPTION\`. Credits the plan's points and sets the subscriber's plan and status. ${executiveScope}`,
      params: idParams,
      body: actionBodySchema(MODULE.subscribers, 'ADD_SUBSCRIPTION'),
      response: { 201: answers.subscribed, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      const subscriberId = request.params.id;
      await loadSubscriber(subscriberId, user);
      const plan = await loadPlan(app, request.body.plan_id);
      const data = await writeAsCaller(app, request, async (context) => {
        const { tx } = context;
        const [subscription] = await tx.query<{ id: number } & Record<string, unknown>>(
          `INSERT INTO subscriber_subscriptions (subscriber_id, plan_id, starts_on, ends_on, points, price, created_by)
           VALUES ($1, $2, $3::date, CASE WHEN $4::int IS NULL THEN NULL ELSE $3::date + $4::int END, $5, $6, $7) RETURNING *`,
          [subscriberId, plan.id, request.body.starts_on, plan.validityDays, plan.points, plan.price, user.id],
        );
        const { entry } = await addLedgerEntry(tx, subscriberId, {
          kind: 'subscription',
          points: plan.points,
          amount: plan.price,
          note: `Subscription to ${plan.name}`,
          idempotencyKey: null,
          subscriptionId: subscription!.id,
          userId: user.id,
        });
        const details = { subscription_id: subscription!.id, plan_id: plan.id, plan: plan.name, points: plan.points, price: plan.price, starts_on: request.body.starts_on };
        const values = subscribedValues(subscribers, plan.id);
        await app.records.of(subscribers).change(context, [subscriberId], values, { expected: 'any', values }, { action: 'subscribe', details });
        return { subscription, ledger_entry: entry };
      });
      reply.code(201);
      return { data, message: 'Subscription added.' };
    },
  });

  app.post<{ Params: { id: number }; Body: { points: number; amount: number; note?: string; idempotency_key: string } }>('/subscribers/:id/top-ups', {
    config: { access: can('ADD_TOP_UP'), audit: { action: 'top_up' } },
    schema: {
      tags,
      operationId: 'addTopUp',
      summary: 'Add a points top-up',
      description: `${MODULE.subscribers}'s form \`ADD_TOP_UP\` and \`idempotency_key\`, which the client makes once per top-up: the same key again answers 200 with the earlier entry and credits nothing. ${executiveScope}`,
      params: idParams,
      body: actionBodySchema(MODULE.subscribers, 'ADD_TOP_UP', TOP_UP_SERVER_ONLY),
      response: { 200: answers.alreadyCredited, 201: answers.credited, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      await loadSubscriber(request.params.id, user);
      const { entry, created } = await db.transaction(async (tx) => {
        const added = await addLedgerEntry(tx, request.params.id, {
          kind: 'top_up',
          points: request.body.points,
          amount: request.body.amount,
          note: request.body.note ?? null,
          idempotencyKey: request.body.idempotency_key,
          subscriptionId: null,
          userId: user.id,
        });
        // The same key again credits nothing, so it records nothing either.
        if (added.created) {
          const { points, amount, note } = request.body;
          await recordAudit(tx, actorOf(request), { module: MODULE.subscribers, recordId: request.params.id, action: 'top_up', details: { ledger_entry_id: added.entry.id, points, amount, note: note ?? null } });
        }
        return added;
      });
      reply.code(created ? 201 : 200);
      return { data: entry, message: created ? 'Top-up added.' : 'This top-up was already added.' };
    },
  });

  const executives = executiveAssignment();
  app.get<{ Params: { id: number }; Querystring: { _page: number; _page_size: number } }>('/executives/:id/subscribers', {
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
        { page, pageSize, sort: subscribers.list.sort.field, order: subscribers.list.sort.direction, q: undefined, filters: {} },
        scope,
      );
      return { data: rows, meta: { total, page, page_size: pageSize } };
    },
  });
}

/**
 * The plan's name for a subscription row (alias `s`), as `<field>_label` is for relations on the list endpoints: the
 * `labelField` of the subscribers' relation to plans, else the plan's name, title or code. NULL without a plans table.
 */
function planLabelSql(subscribers: EntityResource): { column: string; join: string } {
  const plans = entityResource(MODULE.plans);
  if (!plans) return { column: 'NULL::text', join: '' };
  const labelField = relationTo(subscribers.entity, MODULE.plans)?.relation?.labelField ?? firstField(plans.entity, ['name', 'title', 'code'])?.name;
  if (!labelField) return { column: 'NULL::text', join: '' };
  return { column: `p.${quoted(labelField)}::text`, join: `LEFT JOIN ${quoted(plans.entity.table)} p ON p.id = s.plan_id` };
}

interface Plan {
  id: number;
  name: string;
  points: number;
  price: number;
  validityDays: number | null;
}

/** A plan of the SUBSCRIPTIONS resource, read through whichever of the usual field names the manifest gives it. */
async function loadPlan(app: FastifyInstance, planId: number): Promise<Plan> {
  const plans = entityResource(MODULE.plans);
  if (!plans) throw validationError({ plan_id: 'The selected record does not exist.' });
  const column = (names: string[]) => {
    const found = firstField(plans.entity, names);
    return found ? quoted(found.name) : 'NULL';
  };
  const [row] = await app.db.query<{ id: number; name: string | null; points: number | null; price: number | null; validity_days: number | null }>(
    `SELECT id, ${column(['name', 'title', 'code'])}::text AS name, ${column(['points', 'credits'])}::bigint AS points,
            ${column(['price', 'amount'])}::float8 AS price, ${column(['validity_days', 'duration_days'])}::int AS validity_days
       FROM ${quoted(plans.entity.table)} WHERE id = $1 AND is_active`,
    [planId],
  );
  if (!row) throw validationError({ plan_id: 'The selected record does not exist.' });
  return { id: row.id, name: row.name ?? `plan ${row.id}`, points: row.points ?? 0, price: row.price ?? 0, validityDays: row.validity_days };
}

/** What a subscription sets on its subscriber: the plan and the subscribed status, where the manifest has those fields. */
function subscribedValues(subscribers: EntityResource, planId: number): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  if (field(subscribers.entity, 'plan_id')) values.plan_id = planId;
  if (field(subscribers.entity, 'status')) values.status = 'subscribed';
  return values;
}
