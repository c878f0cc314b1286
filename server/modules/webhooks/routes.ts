import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PING_EVENT, WEBHOOK_LIMITS, WEBHOOK_SECRET_PREFIX } from '../../../contract/webhooks.ts';
import { MODULE } from '../../../contract/modules.ts';
import type { ServerConfig } from '../../config.ts';
import { errorAnswers, messageAnswer } from '../../http/answers.ts';
import { conflict, notFound, validationError } from '../../http/errors.ts';
import { IF_MATCH_HEADER, etagOf, expectedVersion, staleRecord } from '../../http/recordVersion.ts';
import { idParams, type PageQuery } from '../../http/requestSchemas.ts';
import { resource } from '../../registry.ts';
import { actorOf, fieldChanges, recordAudit } from '../audit/record.ts';
import { currentUser, permission } from '../auth/access.ts';
import { eventsFor, seesWhole, webhookEvents } from './catalogue.ts';
import { deliverAgain, deliveryPage, newestDelivery, type DeliveryFilter } from './deliveries.ts';
import { queueEvents } from './events.ts';
import { RefusedReceiver, checkReceiverHost, receiverUrl } from './receivers.ts';
import {
  DELIVERIES_ANSWER,
  DELIVERY_QUEUED,
  EVENTS_ANSWER,
  WEBHOOK_ANSWER,
  WEBHOOK_BODY,
  WEBHOOK_CHANGED,
  WEBHOOK_WITH_SECRET,
  WEBHOOKS_ANSWER,
  deliveriesQuery,
  deliveryParams,
  webhooksQuery,
} from './schemas.ts';
import { webhookStore, type WebhookSettings } from './store.ts';

type WebhookWrite = Omit<WebhookSettings, 'enabled'> & { enabled?: boolean };
type IdParams = { Params: { id: number } };

const newSecret = () => `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;

/** `webhooks` (docs/api.md, "Webhooks"): receivers told of events, with their delivery logs. */
export async function webhookRoutes(app: FastifyInstance): Promise<void> {
  const module = MODULE.webhooks;
  if (!resource(module)) return;
  const tags = [resource(module)!.label];
  const access = (action: string) => permission(module, action);
  const found = async (id: number) => (await webhookStore.one(app.db, id)) ?? Promise.reject(notFound('Webhook'));

  app.get<{ Querystring: PageQuery }>('/webhooks', {
    config: { access: access('view') },
    schema: {
      tags,
      operationId: 'listWebhooks',
      summary: 'List webhooks',
      description:
        'Every webhook, with its events, its last delivery and its deliveries pending and failed; never a secret.',
      querystring: webhooksQuery,
      response: { 200: WEBHOOKS_ANSWER, ...errorAnswers(400, 401, 403) },
    },
    handler: async (request) => {
      const { _page: page, _page_size: pageSize } = request.query;
      const { webhooks, total } = await webhookStore.page(app.db, page, pageSize);
      return { data: webhooks, meta: { total, page, page_size: pageSize } };
    },
  });

  app.get('/webhooks/events', {
    config: { access: access('view') },
    schema: {
      tags,
      operationId: 'listWebhookEvents',
      summary: 'Events a webhook may want',
      response: { 200: EVENTS_ANSWER, ...errorAnswers(401, 403) },
    },
    handler: async (request) => ({ data: eventsFor(currentUser(request).grants) }),
  });

  app.post<{ Body: WebhookWrite }>('/webhooks', {
    config: { access: access('add'), audit: { action: 'create' } },
    schema: {
      tags,
      operationId: 'createWebhook',
      summary: 'Register a webhook',
      description: `Its signing secret is in the answer once. At most ${WEBHOOK_LIMITS.webhooks} webhooks (409 beyond).`,
      body: WEBHOOK_BODY,
      response: { 201: WEBHOOK_WITH_SECRET, ...errorAnswers(400, 401, 403, 409) },
    },
    handler: async (request, reply) => {
      const settings = await checkedSettings(request, app.config);
      const secret = newSecret();
      const webhook = await app.db.transaction(async (tx) => {
        if ((await webhookStore.count(tx)) >= WEBHOOK_LIMITS.webhooks)
          throw conflict(`There are ${WEBHOOK_LIMITS.webhooks} webhooks, the most there may be: delete one first.`);
        const id = await webhookStore.insert(tx, settings, secret, currentUser(request).id);
        await recordAudit(tx, actorOf(request), { module, recordId: id, action: 'create', details: { ...settings } });
        return (await webhookStore.one(tx, id))!;
      });
      return reply.code(201).send({
        data: { ...webhook, secret },
        message: `Webhook "${webhook.name}" registered. Copy its signing secret now: it is not shown again.`,
      });
    },
  });

  app.get<IdParams>('/webhooks/:id', {
    config: { access: access('view') },
    schema: {
      tags,
      operationId: 'getWebhook',
      summary: 'One webhook',
      params: idParams,
      response: { 200: WEBHOOK_ANSWER, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const webhook = await found(request.params.id);
      return reply.header('etag', etagOf(webhook.version)).send({ data: webhook });
    },
  });

  app.put<IdParams & { Body: WebhookWrite }>('/webhooks/:id', {
    config: { access: access('edit'), audit: { action: 'update' } },
    schema: {
      tags,
      operationId: 'updateWebhook',
      summary: 'Change a webhook',
      description: 'Its name, address, events and whether it is enabled, at the version read (`If-Match`).',
      params: idParams,
      headers: IF_MATCH_HEADER,
      body: WEBHOOK_BODY,
      response: { 200: WEBHOOK_CHANGED, ...errorAnswers(400, 401, 403, 404, 412, 428) },
    },
    handler: async (request, reply) => {
      const expected = expectedVersion(request);
      const settings = await checkedSettings(request, app.config);
      const { id } = request.params;
      const webhook = await app.db.transaction(async (tx) => {
        const before = await webhookStore.one(tx, id);
        if (!before) throw notFound('Webhook');
        if (!(await webhookStore.update(tx, id, settings, expected))) throw staleRecord('Webhook');
        const after = (await webhookStore.one(tx, id))!;
        await recordAudit(tx, actorOf(request), {
          module,
          recordId: id,
          action: 'update',
          changes: fieldChanges(settingsOf(before), settingsOf(after)),
        });
        return after;
      });
      return reply
        .header('etag', etagOf(webhook.version))
        .send({ data: webhook, message: `Webhook "${webhook.name}" saved.` });
    },
  });

  app.delete<IdParams>('/webhooks/:id', {
    config: { access: access('delete'), audit: { action: 'delete' } },
    schema: {
      tags,
      operationId: 'deleteWebhook',
      summary: 'Delete a webhook',
      description: 'Nothing more is sent to it; its delivery log goes with it.',
      params: idParams,
      response: { 200: messageAnswer('The webhook is gone.'), ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const { id } = request.params;
      const name = await app.db.transaction(async (tx) => {
        const before = await webhookStore.one(tx, id);
        if (!before || !(await webhookStore.remove(tx, id))) throw notFound('Webhook');
        const { name: deleted, url, events } = before;
        await recordAudit(tx, actorOf(request), {
          module,
          recordId: id,
          action: 'delete',
          details: { name: deleted, url, events },
        });
        return deleted;
      });
      return { message: `Webhook "${name}" deleted.` };
    },
  });

  app.post<IdParams>('/webhooks/:id/secret', {
    config: { access: access('edit'), audit: { action: 'secret_rotated' } },
    schema: {
      tags,
      operationId: 'rotateWebhookSecret',
      summary: 'A new signing secret',
      description: 'Deliveries from now on are signed with it (retries included); the old one stops at once.',
      params: idParams,
      response: { 200: WEBHOOK_WITH_SECRET, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const { id } = request.params;
      const secret = newSecret();
      const webhook = await app.db.transaction(async (tx) => {
        if (!(await webhookStore.setSecret(tx, id, secret))) throw notFound('Webhook');
        await recordAudit(tx, actorOf(request), { module, recordId: id, action: 'secret_rotated' });
        return (await webhookStore.one(tx, id))!;
      });
      return {
        data: { ...webhook, secret },
        message: `Webhook "${webhook.name}" has a new signing secret. Give it to the receiver: it is not shown again.`,
      };
    },
  });

  app.post<IdParams>('/webhooks/:id/ping', {
    config: { access: access('edit'), audit: { action: 'ping' } },
    schema: {
      tags,
      operationId: 'pingWebhook',
      summary: 'Send a test event',
      description: `Queues a \`${PING_EVENT}\` event to the webhook, whatever events it wants.`,
      params: idParams,
      response: { 202: DELIVERY_QUEUED, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const webhook = await found(request.params.id);
      const delivery = await app.db.transaction(async (tx) => {
        const data = { webhook_id: webhook.id, name: webhook.name, message: 'A test event, sent on request.' };
        await queueEvents(tx, [{ id: webhook.id, events: [PING_EVENT] }], [{ event: PING_EVENT, data }]);
        await recordAudit(tx, actorOf(request), { module, recordId: webhook.id, action: 'ping' });
        return (await newestDelivery(tx, webhook.id))!;
      });
      return reply.code(202).send({ data: delivery, message: `A test event is on its way to "${webhook.name}".` });
    },
  });

  app.get<IdParams & { Querystring: PageQuery & { state?: DeliveryFilter } }>('/webhooks/:id/deliveries', {
    config: { access: access('view') },
    schema: {
      tags,
      operationId: 'listWebhookDeliveries',
      summary: "A webhook's delivery log",
      description: "Each event sent to it: state, attempts, and the receiver's answer to the last attempt.",
      params: idParams,
      querystring: deliveriesQuery,
      response: { 200: DELIVERIES_ANSWER, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const { id } = request.params;
      await found(id);
      const { _page: page, _page_size: pageSize, state } = request.query;
      const { deliveries, total } = await deliveryPage(app.db, id, state, page, pageSize);
      return { data: deliveries, meta: { total, page, page_size: pageSize } };
    },
  });

  app.post<{ Params: { id: number; deliveryId: number } }>('/webhooks/:id/deliveries/:deliveryId/resend', {
    config: { access: access('edit'), audit: { action: 'resend' } },
    schema: {
      tags,
      operationId: 'resendWebhookDelivery',
      summary: 'Send a delivery again',
      description: 'A new delivery of the same event (same id and body), due now, signed with the current secret.',
      params: deliveryParams,
      response: { 202: DELIVERY_QUEUED, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const { id, deliveryId } = request.params;
      const delivery = await app.db.transaction(async (tx) => {
        const queued = await deliverAgain(tx, id, deliveryId);
        if (!queued) throw notFound('Delivery');
        await recordAudit(tx, actorOf(request), {
          module,
          recordId: id,
          action: 'resend',
          details: { delivery: deliveryId, event: queued.event, event_id: queued.event_id },
        });
        return queued;
      });
      return reply.code(202).send({ data: delivery, message: `${delivery.event} will be sent again.` });
    },
  });
}

function settingsOf({ name, url, events, enabled }: WebhookSettings): Record<string, unknown> {
  return { name, url, events, enabled };
}

/** The settings as given, each judged: a known event the caller may want, an address the server may send to. */
async function checkedSettings(request: FastifyRequest<{ Body: WebhookWrite }>, config: ServerConfig) {
  const { name, url, events, enabled = true } = request.body;
  const grants = currentUser(request).grants;
  const known = new Map(webhookEvents().map((event) => [event.name, event]));
  const problems: Record<string, string> = {};
  const unknown = events.filter((event) => !known.has(event));
  const unseen = events.filter((event) => known.has(event) && !seesWhole(grants, known.get(event)!.module));
  if (unknown.length) problems.events = `No such event: ${unknown.join(', ')}.`;
  else if (unseen.length)
    problems.events = `Your role does not see every record of these events' modules: ${unseen.join(', ')}.`;
  try {
    await checkReceiverHost(receiverUrl(url.trim()), config.webhooks.receivers);
  } catch (error) {
    if (!(error instanceof RefusedReceiver)) throw error;
    problems.url = error.message;
  }
  if (Object.keys(problems).length > 0) throw validationError(problems);
  return { name: name.trim(), url: url.trim(), events, enabled } satisfies WebhookSettings;
}
