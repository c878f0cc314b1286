/**
 * Webhooks (docs/api.md, "Webhooks"): what the server and the console both hold them to. A webhook is a receiver's
 * URL and the events it wants; each event is delivered to it as a signed POST, retried until it is taken.
 */

/** What happens to a record of a resource: the last part of its events' names (`vouchers.updated`). */
export const RECORD_EVENTS = {
  created: 'Created',
  updated: 'Changed',
  deleted: 'Deleted',
  restored: 'Restored from trash',
} as const;

export type RecordEvent = keyof typeof RECORD_EVENTS;

/** Events that are no record's plain change, with what they mean. */
export const DOMAIN_EVENTS = {
  'uploads.published': "A month's trade data was published (after review, or at once when nothing was held).",
  'subscriptions.expiring': "A subscriber's subscription came within the expiring days of its end.",
} as const;

/** The event every webhook may be sent on demand (the console's "Send test event"), whatever it wants. */
export const PING_EVENT = 'webhook.ping';

/** The start of a signing secret, so that a person (or a secret scanner) tells one pasted where it should not be. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

export const WEBHOOK_LIMITS = {
  nameLength: 100,
  urlLength: 2000,
  /** Events one webhook may want. */
  events: 500,
  /** Webhooks at once. */
  webhooks: 50,
  /** The receiver's answer kept in the delivery log, in characters. */
  responseExcerpt: 1000,
  /** How long a receiver has to answer one delivery. */
  timeoutSeconds: 10,
} as const;

/** Which receivers' addresses the server sends to (WEBHOOK_RECEIVERS). */
export type WebhookReceivers = 'public' | 'loopback' | 'private';

/** An event a webhook may want, as `GET webhooks/events` lists them for the caller. */
export interface WebhookEventChoice {
  name: string;
  /** The module whose records it is about (the group the console shows it in). */
  module: string;
  module_label: string;
  description: string;
}

/** A webhook as `GET webhooks` answers it: never its secret. */
export interface WebhookAnswer {
  id: number;
  name: string;
  url: string;
  events: string[];
  enabled: boolean;
  /** The secret's first characters (`whsec_` and four more), to tell which one a receiver holds. */
  secret_hint: string;
  version: number;
  created_by: number | null;
  created_by_email: string | null;
  /** Whether its maker is an active user: events are queued only for a webhook whose maker is. */
  maker_active: boolean;
  created_at: string;
  updated_at: string;
  /** The newest delivery's state and time; null: nothing sent yet. */
  last_delivery: { state: WebhookDeliveryState; at: string; response_status: number | null } | null;
  /** Deliveries still to be sent (waiting or retrying) and those that failed for good. */
  pending: number;
  failed: number;
  /** Why the server paused it (deliveries kept failing); null while enabled, or when a person paused it. */
  paused_reason: string | null;
}

export type WebhookDeliveryState = 'pending' | 'sending' | 'delivered' | 'failed';

/** One delivery of one event to one webhook, as its delivery log shows it. */
export interface WebhookDeliveryAnswer {
  id: number;
  webhook_id: number;
  /** The event's id, the same on every attempt and when sent again: a receiver uses it to take an event once. */
  event_id: string;
  event: string;
  state: WebhookDeliveryState;
  attempts: number;
  created_at: string;
  last_attempt_at: string | null;
  /** When the next attempt is due, while the delivery is pending. */
  next_attempt_at: string | null;
  delivered_at: string | null;
  /** The receiver's HTTP status of the last attempt; null: no answer (refused, timed out, unreachable). */
  response_status: number | null;
  /** The start of the receiver's answer to the last attempt. */
  response_body: string | null;
  /** Why the last attempt failed. */
  error: string | null;
  duration_ms: number | null;
  /** The delivery this one sends again, when it was asked for with "Send again". */
  replay_of: number | null;
  /** The JSON body sent, the same on every attempt. */
  body: string;
}
