import type { AuditAction } from '../../../contract/audit.ts';
import type { Queryable } from '../../db/database.ts';
import { MODULE, SUBSCRIBER_FIELDS, entityResource, type SubscriberStatus } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import type { WriteContext } from '../resources/behaviours.ts';

/** A subscriber's status and plan as their subscriptions make them (server migration 021's `subscription_state`). */
export interface SubscriberState {
  status: string;
  plan_id: number | null;
}

/** What a new subscriber's status and plan are before any subscription: the fields their contract names. */
export function initialSubscriberState(): Record<string, unknown> {
  const { status, plan } = SUBSCRIBER_FIELDS;
  return { [status.field]: 'none' satisfies SubscriberStatus, [plan.field]: null };
}

/**
 * Brings the stored status and plan of these subscribers to what their subscriptions say today, through the record
 * operations (so each change has its audit entry, history and version); answers the subscribers it changed, with
 * what they were. A change of a subscription calls it in the same transaction, so the two never disagree.
 */
export async function keepSubscriberState(
  context: WriteContext,
  ids: readonly number[],
  expiringDays: number,
  entry: { action: AuditAction; details?: Record<string, unknown> },
): Promise<Array<{ id: number; was: SubscriberState; now: SubscriberState }>> {
  const subscribers = entityResource(MODULE.subscribers);
  if (!subscribers || ids.length === 0) return [];
  const status = `t.${quoted(SUBSCRIBER_FIELDS.status.field)}`;
  const plan = `t.${quoted(SUBSCRIBER_FIELDS.plan.field)}`;
  const rows = await context.tx.query<{
    id: number;
    was_status: string | null;
    was_plan: number | null;
    status: string;
    plan_id: number | null;
  }>(
    `SELECT t.id, ${status}::text AS was_status, ${plan}::bigint AS was_plan, d.status, d.plan_id
       FROM ${quoted(subscribers.entity.table)} t, LATERAL subscription_state(t.id, current_date, $2) d
      WHERE t.id = ANY($1::bigint[]) AND (${status} IS DISTINCT FROM d.status OR ${plan} IS DISTINCT FROM d.plan_id)
      ORDER BY t.id`,
    [ids, expiringDays],
  );
  const records = context.app.records.of(subscribers);
  for (const row of rows) {
    const values = { [SUBSCRIBER_FIELDS.status.field]: row.status, [SUBSCRIBER_FIELDS.plan.field]: row.plan_id };
    await records.change(context, [Number(row.id)], values, { expected: 'any', values }, entry);
  }
  return rows.map((row) => ({
    id: Number(row.id),
    was: { status: row.was_status ?? 'none', plan_id: row.was_plan === null ? null : Number(row.was_plan) },
    now: { status: row.status, plan_id: row.plan_id === null ? null : Number(row.plan_id) },
  }));
}

/**
 * The subscribers whose state may have moved with time between two days: a subscription of theirs began, ended or
 * came within the expiring days since `since` (inclusive of both ends, so a missed day is caught up). Without
 * `since` (the first round), every subscriber. A page of them in id order: at most `limit`, after the id `after`.
 */
export async function subscribersDueForState(
  db: Queryable,
  since: string | null,
  today: string,
  expiringDays: number,
  page: { after: number; limit: number },
): Promise<number[]> {
  const subscribers = entityResource(MODULE.subscribers);
  if (!subscribers) return [];
  if (since === null) {
    const all = await db.query<{ id: number }>(
      `SELECT id FROM ${quoted(subscribers.entity.table)} WHERE id > $1 ORDER BY id LIMIT $2`,
      [page.after, page.limit],
    );
    return all.map((row) => Number(row.id));
  }
  const due = await db.query<{ subscriber_id: number }>(
    `SELECT DISTINCT subscriber_id FROM subscriber_subscriptions
      WHERE subscriber_id > $4
        AND (starts_on BETWEEN $1::date AND $2::date
          OR ends_on BETWEEN $1::date - 1 AND $2::date
          OR ends_on BETWEEN $1::date + $3::int - 1 AND $2::date + $3::int)
      ORDER BY subscriber_id
      LIMIT $5`,
    [since, today, expiringDays, page.after, page.limit],
  );
  return due.map((row) => Number(row.subscriber_id));
}
