/**
 * Events into the webhook outbox (docs/api.md, "Webhooks"): written in the transaction of the change they tell of, so
 * a change rolled back sends nothing and one committed is sent by whichever instance claims it.
 */
import { randomUUID } from 'node:crypto';
import { NARROWING_ACTIONS } from '../../../contract/modules.ts';
import type { Queryable, Row } from '../../db/database.ts';

/** An event as its deliveries carry it. */
export interface WebhookEvent {
  event: string;
  data: unknown;
}

/** An enabled webhook that wants one or more of the events asked about. */
export type WantingWebhook = {
  id: number;
  events: string[];
};

/**
 * The enabled webhooks that want any of `events`, of `module`'s records: only those whose maker is active and whose
 * role sees the module whole (it may view it, with no action that narrows what it sees). `module` null: an event of
 * no module's records. One query on a small table, so that a write with no webhook to tell costs next to nothing.
 */
export function webhooksWanting(
  db: Queryable,
  events: readonly string[],
  module: string | null,
): Promise<WantingWebhook[]> {
  return db.query<WantingWebhook>(
    `SELECT w.id, w.events FROM webhooks w
      WHERE w.enabled AND w.events && $1::text[]
        AND ($2::text IS NULL OR EXISTS (
              SELECT 1 FROM users u JOIN role_permissions p ON p.role_id = u.role_id
               WHERE u.id = w.created_by AND u.is_active AND p.module = $2 AND p.action = 'view'
                 AND NOT EXISTS (SELECT 1 FROM role_permissions n
                                  WHERE n.role_id = u.role_id AND n.module = $2 AND n.action = ANY($3::text[]))))
      ORDER BY w.id`,
    [events, module, [...NARROWING_ACTIONS]],
  );
}

/** The JSON body of an event's deliveries: the same bytes on every attempt, to every webhook. */
export function eventBody(eventId: string, event: WebhookEvent, at: Date): string {
  return JSON.stringify({ id: eventId, event: event.event, created_at: at.toISOString(), data: event.data });
}

/** Queues each event for each of `webhooks` that wants it; the number of deliveries queued. */
export async function queueEvents(
  db: Queryable,
  webhooks: readonly WantingWebhook[],
  events: readonly WebhookEvent[],
): Promise<number> {
  const at = new Date();
  const webhookIds: number[] = [];
  const eventIds: string[] = [];
  const names: string[] = [];
  const bodies: string[] = [];
  for (const event of events) {
    const wanting = webhooks.filter((webhook) => webhook.events.includes(event.event));
    if (wanting.length === 0) continue;
    const eventId = randomUUID();
    const body = eventBody(eventId, event, at);
    for (const webhook of wanting) {
      webhookIds.push(webhook.id);
      eventIds.push(eventId);
      names.push(event.event);
      bodies.push(body);
    }
  }
  if (webhookIds.length === 0) return 0;
  await db.query(
    `INSERT INTO webhook_deliveries (webhook_id, event_id, event, body)
     SELECT * FROM unnest($1::bigint[], $2::uuid[], $3::text[], $4::text[])`,
    [webhookIds, eventIds, names, bodies],
  );
  return webhookIds.length;
}

/**
 * Queues the events named of `module`'s records (null: of no module's) for the webhooks that want them. Their data is
 * made only when one does (`made`): reading the records a change touched costs a query most writes need not make.
 */
export async function publishEvents(
  db: Queryable,
  module: string | null,
  named: ReadonlyArray<{ event: string }>,
  made: () => Promise<WebhookEvent[]>,
): Promise<void> {
  if (named.length === 0) return;
  const wanting = await webhooksWanting(db, [...new Set(named.map((event) => event.event))], module);
  if (wanting.length > 0) await queueEvents(db, wanting, await made());
}

/** A record as the API answers it: the fields its answer schema names, in that order, and nothing else. */
export function answeredFields(row: Row, fields: readonly string[]): Record<string, unknown> {
  const answered: Record<string, unknown> = {};
  for (const field of fields) if (field in row) answered[field] = row[field];
  return answered;
}
