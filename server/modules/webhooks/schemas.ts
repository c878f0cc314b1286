/** The request and answer schemas of webhooks (docs/api.md, "Webhooks"). */
import { PING_EVENT, WEBHOOK_LIMITS, WEBHOOK_SECRET_PREFIX } from '../../../contract/webhooks.ts';
import { dataAnswer, listAnswer, withETag, wholeObject } from '../../http/answers.ts';
import { namedSchema } from '../../http/components.ts';
import { pageQuery, exactObject, recordId } from '../../http/requestSchemas.ts';

export const WEBHOOK_BODY = namedSchema('WebhookWrite', {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'url', 'events'],
  properties: {
    name: { title: 'Name', type: 'string', minLength: 1, maxLength: WEBHOOK_LIMITS.nameLength, pattern: '\\S' },
    url: {
      title: 'URL',
      type: 'string',
      minLength: 1,
      maxLength: WEBHOOK_LIMITS.urlLength,
      description:
        'Where events are POSTed: an http(s) address whose host the server may send to (WEBHOOK_RECEIVERS; no private or loopback address in production).',
    },
    events: {
      title: 'Events',
      type: 'array',
      minItems: 1,
      maxItems: WEBHOOK_LIMITS.events,
      uniqueItems: true,
      items: { type: 'string', minLength: 1, maxLength: 200 },
      description: 'Names from `GET webhooks/events` (`vouchers.updated`, `uploads.published`, ...).',
    },
    enabled: { title: 'Enabled', type: 'boolean', default: true, description: 'false: nothing is sent or queued.' },
  },
});

const LAST_DELIVERY = wholeObject(
  {
    state: { type: 'string', enum: ['pending', 'sending', 'delivered', 'failed'] },
    at: { type: 'string', format: 'date-time' },
    response_status: { type: ['integer', 'null'] },
  },
  { type: ['object', 'null'] },
);

const WEBHOOK = namedSchema(
  'Webhook',
  wholeObject({
    id: { type: 'integer' },
    name: { type: 'string' },
    url: { type: 'string' },
    events: { type: 'array', items: { type: 'string' } },
    enabled: { type: 'boolean' },
    secret_hint: {
      type: 'string',
      description: `The signing secret's first characters (\`${WEBHOOK_SECRET_PREFIX}\` and four more).`,
    },
    version: { type: 'integer' },
    created_by: { type: ['integer', 'null'] },
    created_by_email: { type: ['string', 'null'] },
    maker_active: {
      type: 'boolean',
      description:
        'Whether its maker is an active user. False: it is sent nothing (its maker was deactivated or deleted).',
    },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    last_delivery: LAST_DELIVERY,
    pending: { type: 'integer', description: 'Deliveries waiting or being retried.' },
    failed: { type: 'integer', description: 'Deliveries that failed for good (they may be sent again).' },
    paused_reason: {
      type: ['string', 'null'],
      description:
        'Why the server paused the webhook: a delivery failed for good and none got through since its event. Null while enabled, or when a person paused it.',
    },
  }),
);

const WITH_SECRET = wholeObject({
  ...WEBHOOK.properties,
  secret: {
    type: 'string',
    description: `The signing secret, \`${WEBHOOK_SECRET_PREFIX}…\`: shown this once. Each delivery's \`X-Signature\` is \`sha256=\` HMAC-SHA256 of \`<X-Webhook-Timestamp>.<body>\` under it.`,
  },
});

const DELIVERY = namedSchema('WebhookDelivery', {
  type: 'object',
  required: ['id', 'webhook_id', 'event_id', 'event', 'state', 'attempts', 'created_at', 'body'],
  properties: {
    id: { type: 'integer' },
    webhook_id: { type: 'integer' },
    event_id: { type: 'string', format: 'uuid', description: 'The same on every attempt and when sent again.' },
    event: { type: 'string' },
    state: { type: 'string', enum: ['pending', 'sending', 'delivered', 'failed'] },
    attempts: { type: 'integer' },
    created_at: { type: 'string', format: 'date-time' },
    last_attempt_at: { type: ['string', 'null'], format: 'date-time' },
    next_attempt_at: { type: ['string', 'null'], format: 'date-time' },
    delivered_at: { type: ['string', 'null'], format: 'date-time' },
    response_status: { type: ['integer', 'null'], description: "The receiver's HTTP status of the last attempt." },
    response_body: {
      type: ['string', 'null'],
      description: `The first ${WEBHOOK_LIMITS.responseExcerpt} characters of its answer.`,
    },
    error: { type: ['string', 'null'], description: 'Why the last attempt failed.' },
    duration_ms: { type: ['integer', 'null'] },
    replay_of: { type: ['integer', 'null'], description: 'The delivery this one sends again.' },
    body: { type: 'string', description: 'The JSON sent: `{ id, event, created_at, data }`.' },
  },
});

const EVENT_CHOICE = namedSchema(
  'WebhookEventChoice',
  wholeObject({
    name: { type: 'string' },
    module: { type: 'string' },
    module_label: { type: 'string' },
    description: { type: 'string' },
  }),
);

export const WEBHOOKS_ANSWER = listAnswer('A page of the webhooks, newest first.', WEBHOOK);
export const WEBHOOK_ANSWER = withETag(dataAnswer('The webhook.', WEBHOOK));
export const WEBHOOK_CHANGED = withETag(dataAnswer('The webhook as changed.', WEBHOOK, { message: true }));
export const WEBHOOK_WITH_SECRET = dataAnswer(
  'The webhook with its signing secret in `secret`: shown this once.',
  WITH_SECRET,
  { message: true },
);
export const EVENTS_ANSWER = dataAnswer(
  `The events the caller may choose: the record events of each module their role views whole, and the other events. \`${PING_EVENT}\` is sent on demand to any webhook.`,
  { type: 'array', items: EVENT_CHOICE },
);
export const DELIVERIES_ANSWER = listAnswer("A page of the webhook's delivery log, newest first.", DELIVERY);
export const DELIVERY_QUEUED = dataAnswer('The delivery queued: sent within seconds.', DELIVERY, { message: true });

export const webhooksQuery = pageQuery({ default: 50, maximum: 200 });
export const deliveriesQuery = pageQuery(
  { default: 20, maximum: 200 },
  {
    filters: {
      state: {
        type: 'string',
        enum: ['pending', 'delivered', 'failed'],
        description: 'Only deliveries in this state (`pending`: waiting, being sent or to be retried).',
      },
    },
  },
);

export const deliveryParams = exactObject({
  id: recordId,
  deliveryId: recordId,
});
