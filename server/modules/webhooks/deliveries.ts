import { createHmac } from 'node:crypto';
import type { WebhookDeliveryAnswer, WebhookDeliveryState } from '../../../contract/webhooks.ts';
import type { Queryable } from '../../db/database.ts';
import type { ReceiverAnswer } from './send.ts';

/** A delivery claimed for an attempt, with its webhook's address and secret as they are now. */
export type ClaimedDelivery = {
  id: number;
  webhook_id: number;
  url: string;
  secret: string;
  event_id: string;
  event: string;
  body: string;
  /** This attempt's number, from 1. */
  attempts: number;
  created_at: Date;
};

/** A delivery as a query reads it (the answer's shape, as a type the database layer takes). */
type DeliveryRow = Pick<WebhookDeliveryAnswer, keyof WebhookDeliveryAnswer>;

/** Which deliveries the log shows: all, or those in a state (`pending` includes those being sent). */
export type DeliveryFilter = 'pending' | 'delivered' | 'failed' | undefined;

/**
 * The headers of an attempt (docs/api.md, "Webhooks"): the event's id (the same on every attempt), its name, the
 * time of the attempt in seconds, and `sha256=` HMAC-SHA256 of `<timestamp>.<body>` under the webhook's secret, so a
 * receiver checks both the sender and that the attempt is recent (a replay carries an old timestamp).
 */
export function signedHeaders(
  delivery: Omit<ClaimedDelivery, 'id' | 'webhook_id' | 'url' | 'attempts' | 'created_at'>,
  at: Date,
) {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signature = createHmac('sha256', delivery.secret).update(`${timestamp}.${delivery.body}`).digest('hex');
  return {
    'content-type': 'application/json',
    'user-agent': 'TradeDataConsole-Webhooks/1',
    'x-webhook-id': delivery.event_id,
    'x-webhook-event': delivery.event,
    'x-webhook-timestamp': timestamp,
    'x-signature': `sha256=${signature}`,
  };
}

/**
 * Claims up to `limit` due deliveries of enabled webhooks: pending ones whose next attempt has come, and those whose
 * claim ran out (their instance stopped mid-send). Rows another instance is claiming are skipped, not waited for.
 */
export function claimDueDeliveries(
  db: Queryable,
  claimId: string,
  claimMilliseconds: number,
  limit: number,
): Promise<ClaimedDelivery[]> {
  return db.query<ClaimedDelivery>(
    `WITH due AS (
       SELECT d.id FROM webhook_deliveries d
        WHERE d.state IN ('pending', 'sending') AND d.next_attempt_at <= now()
          AND EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id AND w.enabled)
        ORDER BY d.next_attempt_at, d.id LIMIT $3 FOR UPDATE OF d SKIP LOCKED)
     UPDATE webhook_deliveries d SET state = 'sending', claim_id = $1, attempts = d.attempts + 1,
            last_attempt_at = now(), next_attempt_at = now() + $2 * interval '1 millisecond'
       FROM webhooks w
      WHERE d.id IN (SELECT id FROM due) AND w.id = d.webhook_id
      RETURNING d.id, d.webhook_id, w.url, w.secret, d.event_id::text, d.event, d.body, d.attempts, d.created_at`,
    [claimId, claimMilliseconds, limit],
  );
}

/**
 * The outcome of an attempt, recorded only while the claim is still this instance's (true when it was): `state`
 * delivered or failed for good, or pending again after `retryMilliseconds`.
 */
export async function recordAttempt(
  db: Queryable,
  delivery: ClaimedDelivery,
  claimId: string,
  answer: ReceiverAnswer,
  state: Exclude<WebhookDeliveryState, 'sending'>,
  retryMilliseconds = 0,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE webhook_deliveries
        SET state = $3, claim_id = NULL, response_status = $4, response_body = $5, last_error = $6, duration_ms = $7,
            delivered_at = CASE WHEN $3 = 'delivered' THEN now() END,
            next_attempt_at = now() + $8 * interval '1 millisecond'
      WHERE id = $1 AND claim_id = $2 RETURNING id`,
    [delivery.id, claimId, state, answer.status, answer.body, answer.error, answer.durationMs, retryMilliseconds],
  );
  return rows.length === 1;
}

const DELIVERY_COLUMNS = `id, webhook_id, event_id::text, event, state, attempts, created_at, last_attempt_at,
  CASE WHEN state IN ('pending', 'sending') THEN next_attempt_at END AS next_attempt_at, delivered_at, response_status,
  response_body, last_error AS error, duration_ms, replay_of, body`;

const STATES: Record<NonNullable<DeliveryFilter>, string[]> = {
  pending: ['pending', 'sending'],
  delivered: ['delivered'],
  failed: ['failed'],
};

/** A page of a webhook's delivery log, newest first, with the count of what the filter matches. */
export async function deliveryPage(
  db: Queryable,
  webhookId: number,
  filter: DeliveryFilter,
  page: number,
  pageSize: number,
): Promise<{ deliveries: WebhookDeliveryAnswer[]; total: number }> {
  const states = filter ? STATES[filter] : null;
  const [counted] = await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM webhook_deliveries WHERE webhook_id = $1 AND ($2::text[] IS NULL OR state = ANY($2::text[]))`,
    [webhookId, states],
  );
  const deliveries = await db.query<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
      WHERE webhook_id = $1 AND ($2::text[] IS NULL OR state = ANY($2::text[]))
      ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
    [webhookId, states, pageSize, (page - 1) * pageSize],
  );
  return { deliveries, total: counted?.total ?? 0 };
}

/** A new delivery of the event `deliveryId` carried (its id and body unchanged), due now; null: no such delivery. */
export async function deliverAgain(
  db: Queryable,
  webhookId: number,
  deliveryId: number,
): Promise<WebhookDeliveryAnswer | null> {
  const [row] = await db.query<DeliveryRow>(
    `INSERT INTO webhook_deliveries (webhook_id, event_id, event, body, replay_of)
     SELECT webhook_id, event_id, event, body, id FROM webhook_deliveries WHERE id = $1 AND webhook_id = $2
     RETURNING ${DELIVERY_COLUMNS}`,
    [deliveryId, webhookId],
  );
  return row ?? null;
}

/** The newest delivery of a webhook, as its log shows it (the answer of a test event just queued). */
export async function newestDelivery(db: Queryable, webhookId: number): Promise<WebhookDeliveryAnswer | null> {
  const [row] = await db.query<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1`,
    [webhookId],
  );
  return row ?? null;
}

/** Removes delivered and failed deliveries older than `keptDays`, a batch at a time; how many went. */
export async function purgeOldDeliveries(db: Queryable, keptDays: number): Promise<number> {
  const removed = await db.query(
    `DELETE FROM webhook_deliveries WHERE id IN (
       SELECT id FROM webhook_deliveries WHERE state IN ('delivered', 'failed') AND created_at < now() - $1 * interval '1 day'
        LIMIT 10000) RETURNING id`,
    [keptDays],
  );
  return removed.length;
}

/** How many deliveries are in each state but `delivered` (the metrics' webhook outbox). */
export async function unsentDeliveryCounts(db: Queryable): Promise<Map<string, number>> {
  const rows = await db.query<{ state: string; count: number }>(
    `SELECT state, count(*)::int AS count FROM webhook_deliveries WHERE state <> 'delivered' GROUP BY state`,
  );
  return new Map(rows.map((row) => [row.state, row.count]));
}
