import type { FastifyInstance } from 'fastify';
import { actionBodySchema } from '../../http/actionBody.ts';
import { errorAnswers } from '../../http/answers.ts';
import { idParams } from '../../http/requestSchemas.ts';
import { MODULE, entityResource } from '../../registry.ts';
import { actorOf, recordAudit } from '../audit/record.ts';
import { currentUser } from '../auth/access.ts';
import { writeAsCaller } from '../resources/writeAsCaller.ts';
import { addLedgerEntry } from './points.ts';
import {
  cancelSubscription,
  quoteAnswer,
  quoteSale,
  recordPayment,
  paymentsOf,
  sellSubscription,
  subscriptionsOf,
  type SaleRequest,
} from './sales.ts';
import { EXECUTIVE_SCOPE, subscriberRouteParts } from './routeParts.ts';
import { TOP_UP_SERVER_ONLY, quoteQuery, subscriptionParams } from './schemas.ts';

/** Selling: a subscriber's subscriptions and payments, the price of a sale, the sale, its cancellation, a top-up. */
export async function saleRoutes(app: FastifyInstance): Promise<void> {
  const subscribers = entityResource(MODULE.subscribers);
  if (!subscribers) return;
  const { db } = app;
  const { can, mayDo, answers, tags, loadSubscriber } = subscriberRouteParts(app, subscribers);

  app.get<{ Params: { id: number } }>('/subscribers/:id/subscriptions', {
    config: { access: can('SUBSCRIBER_DETAIL') },
    schema: {
      tags,
      operationId: 'listSubscriberSubscriptions',
      summary: "A subscriber's subscriptions",
      description: EXECUTIVE_SCOPE,
      params: idParams,
      response: { 200: answers.subscriptions, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request) => {
      await loadSubscriber(request.params.id, currentUser(request));
      return { data: await subscriptionsOf(db, request.params.id) };
    },
  });

  app.get<{ Params: { id: number } }>('/subscribers/:id/payments', {
    config: { access: can('SUBSCRIBER_DETAIL') },
    schema: {
      tags,
      operationId: 'listSubscriberPayments',
      summary: "A subscriber's payments",
      description: `Newest first, at most 500. ${EXECUTIVE_SCOPE}`,
      params: idParams,
      response: { 200: answers.payments, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request) => {
      await loadSubscriber(request.params.id, currentUser(request));
      return { data: await paymentsOf(db, request.params.id) };
    },
  });

  app.get<{ Params: { id: number }; Querystring: { plan_id: number; voucher_code?: string; is_trial: boolean } }>(
    '/subscribers/:id/subscription-quote',
    {
      config: { access: mayDo('add_subscription') },
      schema: {
        tags,
        operationId: 'quoteSubscription',
        summary: 'The price of a subscription before it is added',
        description: `The plan's list price less the voucher's discount, checked as the sale would check it (400 on \`voucher_code\` naming why it does not apply); nothing is counted. ${EXECUTIVE_SCOPE}`,
        params: idParams,
        querystring: quoteQuery,
        response: { 200: answers.quote, ...errorAnswers(400, 401, 403, 404) },
      },
      handler: async (request) => {
        await loadSubscriber(request.params.id, currentUser(request));
        return { data: quoteAnswer(await quoteSale(app, db, request.query)) };
      },
    },
  );

  app.post<{ Params: { id: number }; Body: SaleRequest }>('/subscribers/:id/subscriptions', {
    config: { access: mayDo('add_subscription'), audit: { action: 'subscribe' } },
    schema: {
      tags,
      operationId: 'addSubscription',
      summary: 'Sell a subscription',
      description: `${MODULE.subscribers}'s form \`ADD_SUBSCRIPTION\`. Records the plan, period, list price, voucher (its use counted), discount, amount due and paid and the payment's reference; credits the plan's points; the subscriber's status and plan follow from the subscriptions. ${EXECUTIVE_SCOPE}`,
      params: idParams,
      body: actionBodySchema(MODULE.subscribers, 'ADD_SUBSCRIPTION'),
      response: { 201: answers.subscribed, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      await loadSubscriber(request.params.id, currentUser(request));
      const sold = await writeAsCaller(app, request, (context) =>
        sellSubscription(context, request.params.id, request.body),
      );
      reply.code(201);
      return {
        data: { subscription: sold.subscription, ledger_entry: sold.ledger_entry, payment: sold.payment },
        message: request.body.is_trial ? 'Trial started.' : 'Subscription added.',
      };
    },
  });

  app.post<{ Params: { id: number; subscriptionId: number } }>(
    '/subscribers/:id/subscriptions/:subscriptionId/cancel',
    {
      config: { access: mayDo('cancel_subscription'), audit: { action: 'subscription_cancel' } },
      schema: {
        tags,
        operationId: 'cancelSubscription',
        summary: 'Cancel a subscription',
        description: `A subscription in force or yet to start; one that ended or was cancelled is a 409. Its money stays recorded. ${EXECUTIVE_SCOPE}`,
        params: subscriptionParams,
        response: { 200: answers.cancelled, ...errorAnswers(400, 401, 403, 404, 409) },
      },
      handler: async (request) => {
        await loadSubscriber(request.params.id, currentUser(request));
        const data = await writeAsCaller(app, request, (context) =>
          cancelSubscription(context, request.params.id, request.params.subscriptionId),
        );
        return { data, message: 'Subscription cancelled.' };
      },
    },
  );

  app.post<{
    Params: { id: number };
    Body: { points: number; amount: number; note?: string; payment_reference?: string; idempotency_key: string };
  }>('/subscribers/:id/top-ups', {
    config: { access: mayDo('add_top_up'), audit: { action: 'top_up' } },
    schema: {
      tags,
      operationId: 'addTopUp',
      summary: 'Add a points top-up',
      description: `${MODULE.subscribers}'s form \`ADD_TOP_UP\` and \`idempotency_key\`, which the client makes once per top-up: the same key again answers 200 with the earlier entry and credits nothing. An amount paid is recorded as a payment. ${EXECUTIVE_SCOPE}`,
      params: idParams,
      body: actionBodySchema(MODULE.subscribers, 'ADD_TOP_UP', TOP_UP_SERVER_ONLY),
      response: { 200: answers.alreadyCredited, 201: answers.credited, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      await loadSubscriber(request.params.id, user);
      const { points, amount, note, payment_reference: typedReference, idempotency_key: idempotencyKey } = request.body;
      const reference = typedReference?.trim() || null;
      const { entry, created } = await db.transaction(async (tx) => {
        const added = await addLedgerEntry(tx, request.params.id, {
          kind: 'top_up',
          points,
          amount,
          note: note ?? null,
          idempotencyKey,
          subscriptionId: null,
          userId: user.id,
        });
        // The same key again credits nothing, so it records nothing either.
        if (!added.created) return added;
        const payment =
          amount > 0
            ? await recordPayment(tx, {
                subscriberId: request.params.id,
                kind: 'top_up',
                amount,
                reference,
                subscriptionId: null,
                ledgerEntryId: Number(added.entry.id),
                userId: user.id,
              })
            : null;
        await recordAudit(tx, actorOf(request), {
          module: MODULE.subscribers,
          recordId: request.params.id,
          action: 'top_up',
          details: {
            ledger_entry_id: added.entry.id,
            payment_id: payment?.id ?? null,
            points,
            amount,
            payment_reference: reference,
            note: note ?? null,
          },
        });
        return added;
      });
      reply.code(created ? 201 : 200);
      return { data: entry, message: created ? 'Top-up added.' : 'This top-up was already added.' };
    },
  });
}
