/** Subscriber detail, subscriptions, top-ups and an executive's subscribers: their queries and answers. */
import type { JsonSchema } from '../../../contract/description.ts';
import { dataAnswer, listAnswer, type Answer, wholeObject } from '../../http/answers.ts';
import { namedSchema } from '../../http/components.ts';
import { pageQuery, exactObject, recordId } from '../../http/requestSchemas.ts';

/**
 * Not a field of the manifest's ADD_TOP_UP form: no user types it. The console makes one key per top-up dialog and
 * sends it beside the form's data, so a retried or double-clicked top-up credits once.
 */
export const TOP_UP_SERVER_ONLY = {
  idempotency_key: {
    title: 'Idempotency key',
    type: 'string',
    minLength: 8,
    maxLength: 100,
    pattern: '^[A-Za-z0-9_-]+$',
  },
};

export const executiveSubscribersQuery = pageQuery({ default: 20, maximum: 100 });

const integer = { type: 'integer' };
const nullableInteger = { type: ['integer', 'null'] };
const nullableString = { type: ['string', 'null'] };
const dateTime = { type: 'string', format: 'date-time' };

const money = { type: 'number', description: 'Rupees, to the paisa.' };
const nullableDate = { type: ['string', 'null'], format: 'date' };

const SUBSCRIPTION_FIELDS: Record<string, JsonSchema> = {
  id: integer,
  subscriber_id: integer,
  plan_id: integer,
  starts_on: { type: 'string', format: 'date' },
  ends_on: { ...nullableDate, description: 'The last day it covers; null: no end.' },
  is_trial: { type: 'boolean' },
  points: integer,
  list_price: money,
  voucher_id: nullableInteger,
  discount: money,
  amount_due: money,
  amount_paid: money,
  payment_reference: nullableString,
  cancelled_at: { type: ['string', 'null'], format: 'date-time' },
  cancelled_by: nullableInteger,
  created_by: nullableInteger,
  created_at: dateTime,
};

/** Where a subscription stands today. */
const SUBSCRIPTION_STATE = { type: 'string', enum: ['scheduled', 'current', 'ended', 'cancelled'] };

const SUBSCRIPTION = namedSchema('Subscription', wholeObject(SUBSCRIPTION_FIELDS));

/** A points ledger entry; the ledger lists the first seven fields, an entry just written has them all. */
const PAYMENT = namedSchema('Payment', {
  type: 'object',
  required: ['id', 'kind', 'amount', 'reference', 'subscription_id', 'ledger_entry_id', 'received_at'],
  properties: {
    id: integer,
    kind: { type: 'string', enum: ['subscription', 'top_up'] },
    amount: money,
    reference: nullableString,
    subscription_id: nullableInteger,
    ledger_entry_id: nullableInteger,
    received_at: dateTime,
    note: { ...nullableString, description: 'What was bought: the plan, or the points of a top-up.' },
  },
});

const LISTED_SUBSCRIPTION = namedSchema(
  'ListedSubscription',
  wholeObject({
    ...SUBSCRIPTION_FIELDS,
    plan_label: nullableString,
    voucher_code: nullableString,
    state: SUBSCRIPTION_STATE,
  }),
);

export const quoteQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['plan_id'],
  properties: {
    plan_id: recordId,
    voucher_code: { type: 'string', maxLength: 20 },
    is_trial: { type: 'boolean', default: false },
  },
} as const;

export const subscriptionParams = exactObject({ id: recordId, subscriptionId: recordId });

const LEDGER_ENTRY = namedSchema('LedgerEntry', {
  type: 'object',
  required: ['id', 'kind', 'points', 'amount', 'balance_after', 'note', 'created_at'],
  properties: {
    id: integer,
    kind: { type: 'string', enum: ['subscription', 'top_up', 'consumption'] },
    points: integer,
    amount: money,
    balance_after: integer,
    note: nullableString,
    created_at: dateTime,
    subscriber_id: integer,
    idempotency_key: nullableString,
    subscription_id: nullableInteger,
    created_by: nullableInteger,
  },
});

const ALLOWED_ACTIONS = wholeObject(
  {
    add_subscription: { type: 'boolean', description: 'POST subscribers/:id/subscriptions (and its quote).' },
    cancel_subscription: { type: 'boolean', description: 'POST subscribers/:id/subscriptions/:subscriptionId/cancel.' },
    add_top_up: { type: 'boolean', description: 'POST subscribers/:id/top-ups.' },
  },
  {
    description: 'What the caller may do to this subscriber, as the routes that do it would judge.',
    additionalProperties: false,
  },
);

type SubscriberAnswer =
  | 'summary'
  | 'ledger'
  | 'subscriptions'
  | 'payments'
  | 'quote'
  | 'subscribed'
  | 'cancelled'
  | 'credited'
  | 'alreadyCredited'
  | 'assigned';

export function subscriberAnswers(subscriber: JsonSchema): Record<SubscriberAnswer, Answer> {
  // The latest subscription, or null when there is none.
  const latest = wholeObject(
    {
      ...SUBSCRIPTION_FIELDS,
      plan_label: { ...nullableString, description: "The plan's name." },
      is_current: { type: 'boolean', description: 'In force today.' },
      state: SUBSCRIPTION_STATE,
    },
    { type: ['object', 'null'] },
  );
  return {
    summary: dataAnswer(
      'The summary.',
      wholeObject({
        subscriber,
        subscription: latest,
        points_balance: integer,
        paid_total: { ...money, description: 'Every payment received from the subscriber.' },
        can: ALLOWED_ACTIONS,
      }),
    ),
    ledger: dataAnswer('The entries.', { type: 'array', items: LEDGER_ENTRY }),
    subscriptions: dataAnswer('The subscriptions, newest first.', { type: 'array', items: LISTED_SUBSCRIPTION }),
    payments: dataAnswer('The payments, newest first.', { type: 'array', items: PAYMENT }),
    quote: dataAnswer(
      'The price.',
      wholeObject({
        list_price: money,
        discount: money,
        amount_due: money,
        days: { ...nullableInteger, description: 'How many days it covers; null: no end.' },
        voucher_code: nullableString,
      }),
    ),
    subscribed: dataAnswer(
      'Added.',
      wholeObject({
        subscription: SUBSCRIPTION,
        ledger_entry: LEDGER_ENTRY,
        payment: { anyOf: [PAYMENT, { type: 'null' }] },
      }),
      { message: true },
    ),
    cancelled: dataAnswer('Cancelled.', SUBSCRIPTION, { message: true }),
    credited: dataAnswer('Credited.', LEDGER_ENTRY, { message: true }),
    alreadyCredited: dataAnswer('Already credited with this key.', LEDGER_ENTRY, { message: true }),
    assigned: listAnswer('A page of subscribers.', subscriber),
  };
}
