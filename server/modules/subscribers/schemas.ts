/** Subscriber detail, subscriptions, top-ups and an executive's subscribers: their queries and answers. */
import type { JsonSchema } from '../../../contract/description.ts';
import { dataAnswer, listAnswer, type Answer } from '../../http/answers.ts';
import { namedSchema } from '../../http/components.ts';

/**
 * Not a field of the manifest's ADD_TOP_UP form: no user types it. The console makes one key per top-up dialog and
 * sends it beside the form's data, so a retried or double-clicked top-up credits once.
 */
export const TOP_UP_SERVER_ONLY = {
  idempotency_key: { title: 'Idempotency key', type: 'string', minLength: 8, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' },
};

export const executiveSubscribersQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { _page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 }, _page_size: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
} as const;

const integer = { type: 'integer' };
const nullableInteger = { type: ['integer', 'null'] };
const nullableString = { type: ['string', 'null'] };
const dateTime = { type: 'string', format: 'date-time' };

const SUBSCRIPTION_FIELDS: Record<string, JsonSchema> = {
  id: integer,
  subscriber_id: integer,
  plan_id: integer,
  starts_on: { type: 'string', format: 'date' },
  ends_on: { type: ['string', 'null'], format: 'date' },
  points: integer,
  price: { type: 'number' },
  created_by: nullableInteger,
  created_at: dateTime,
};

const SUBSCRIPTION = namedSchema('Subscription', { type: 'object', required: Object.keys(SUBSCRIPTION_FIELDS), properties: SUBSCRIPTION_FIELDS });

/** A points ledger entry; the ledger lists the first seven fields, an entry just written has them all. */
const LEDGER_ENTRY = namedSchema('LedgerEntry', {
  type: 'object',
  required: ['id', 'kind', 'points', 'amount', 'balance_after', 'note', 'created_at'],
  properties: {
    id: integer,
    kind: { type: 'string', enum: ['subscription', 'top_up', 'consumption'] },
    points: integer,
    amount: { type: 'number' },
    balance_after: integer,
    note: nullableString,
    created_at: dateTime,
    subscriber_id: integer,
    idempotency_key: nullableString,
    subscription_id: nullableInteger,
    created_by: nullableInteger,
  },
});

export function subscriberAnswers(subscriber: JsonSchema): Record<'summary' | 'ledger' | 'subscribed' | 'credited' | 'alreadyCredited' | 'assigned', Answer> {
  // The latest subscription, or null when there is none.
  const latest = {
    type: ['object', 'null'],
    required: [...Object.keys(SUBSCRIPTION_FIELDS), 'plan_label', 'is_current'],
    properties: {
      ...SUBSCRIPTION_FIELDS,
      plan_label: { ...nullableString, description: 'The plan\'s label, as `<field>_label` on the lists.' },
      is_current: { type: 'boolean' },
    },
  };
  return {
    summary: dataAnswer('The summary.', {
      type: 'object',
      required: ['subscriber', 'subscription', 'points_balance'],
      properties: { subscriber, subscription: latest, points_balance: integer },
    }),
    ledger: dataAnswer('The entries.', { type: 'array', items: LEDGER_ENTRY }),
    subscribed: dataAnswer(
      'Added.',
      { type: 'object', required: ['subscription', 'ledger_entry'], properties: { subscription: SUBSCRIPTION, ledger_entry: LEDGER_ENTRY } },
      { message: true },
    ),
    credited: dataAnswer('Credited.', LEDGER_ENTRY, { message: true }),
    alreadyCredited: dataAnswer('Already credited with this key.', LEDGER_ENTRY, { message: true }),
    assigned: listAnswer('A page of subscribers.', subscriber),
  };
}
