import type { Queryable } from '../../db/database.ts';
import { MODULE, SUBSCRIPTION_PLAN_FIELDS, entityResource } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';

/** Monthly series for the admin report: new subscriptions by plan, points consumed, uploads (by their data's month), revenue. */
export async function adminSummary(db: Queryable, from: string | null, to: string | null) {
  const range = (column: string) =>
    `($1::date IS NULL OR ${column} >= $1::date) AND ($2::date IS NULL OR ${column} < $2::date + 1)`;
  const plans = entityResource(MODULE.subscriptionPlans);
  const planLabel = plans
    ? `(SELECT p.${quoted(SUBSCRIPTION_PLAN_FIELDS.name.field)}::text FROM ${quoted(plans.entity.table)} p WHERE p.id = s.plan_id)`
    : `s.plan_id::text`;
  const uploads = entityResource(MODULE.dataUploadLogs);
  const [subscribersByPlan, pointsConsumed, uploadsPerMonth, revenue] = await Promise.all([
    db.query(
      `SELECT to_char(s.starts_on, 'YYYY-MM') AS month, coalesce(${planLabel}, 'unknown') AS plan, count(*) AS subscribers
         FROM subscriber_subscriptions s WHERE ${range('s.starts_on')} GROUP BY 1, 2 ORDER BY 1, 2`,
      [from, to],
    ),
    db.query(
      `SELECT to_char(created_at, 'YYYY-MM') AS month, coalesce(sum(-points), 0) AS points
         FROM points_ledger WHERE kind = 'consumption' AND ${range('created_at')} GROUP BY 1 ORDER BY 1`,
      [from, to],
    ),
    // Uploads count in the month of their data (the period they carry), not the month they were sent; one without a
    // period counts in the month it was sent.
    uploads
      ? db.query(
          `SELECT month, count(*) AS uploads
             FROM (SELECT coalesce(period, to_char(created_at, 'YYYY-MM')) AS month FROM ${quoted(uploads.entity.table)}) u
            WHERE ($1::date IS NULL OR month >= to_char($1::date, 'YYYY-MM')) AND ($2::date IS NULL OR month <= to_char($2::date, 'YYYY-MM'))
            GROUP BY 1 ORDER BY 1`,
          [from, to],
        )
      : Promise.resolve([]),
    // Revenue anywhere is the payments received, by the day they were (the home screen's revenue card sums the same).
    db.query(
      `SELECT to_char(received_at, 'YYYY-MM') AS month, coalesce(sum(amount), 0) AS revenue
         FROM payments WHERE ${range('received_at')} GROUP BY 1 ORDER BY 1`,
      [from, to],
    ),
  ]);
  return {
    subscribers_by_plan: subscribersByPlan,
    points_consumed: pointsConsumed,
    uploads_per_month: uploadsPerMonth,
    revenue,
  };
}
