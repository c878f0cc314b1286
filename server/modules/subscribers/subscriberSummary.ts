import type { Queryable, Row } from '../../db/database.ts';
import { IN_FORCE, SUBSCRIPTION_STATE, planLabelSql } from './routeParts.ts';

/** The subscription in force (else the latest one) of a subscriber, with its plan's name and where it stands. */
export async function currentSubscription(db: Queryable, subscriberId: number): Promise<Row | undefined> {
  const [subscription] = await db.query(
    `SELECT s.*, ${planLabelSql()} AS plan_label, ${IN_FORCE} AS is_current, ${SUBSCRIPTION_STATE} AS state
       FROM subscriber_subscriptions s WHERE s.subscriber_id = $1
      ORDER BY ${IN_FORCE} DESC, s.is_trial, s.starts_on DESC, s.id DESC LIMIT 1`,
    [subscriberId],
  );
  return subscription;
}

/** What a subscriber has paid in all. */
export async function paidTotal(db: Queryable, subscriberId: number): Promise<number> {
  const [paid] = await db.query<{ total: number }>(
    'SELECT coalesce(sum(amount), 0) AS total FROM payments WHERE subscriber_id = $1',
    [subscriberId],
  );
  return paid?.total ?? 0;
}
