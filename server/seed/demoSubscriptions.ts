import type { Queryable } from '../db/database.ts';
import { MODULE, SUBSCRIBER_FIELDS, SUBSCRIPTION_PLAN_FIELDS, entityResource } from '../registry.ts';
import { quoted } from '../../codegen/sqlNames.ts';

const DAY_MS = 86_400_000;
/** The demo's expiring window: the server's default (SUBSCRIPTION_EXPIRING_DAYS). */
const EXPIRING_DAYS = 30;
const TRIAL_DAYS = 14;

type Plan = {
  id: number;
  points: number;
  price: string;
  validity_days: number;
};

interface Sale {
  subscriber: number;
  plan: Plan;
  startsAt: number;
  days: number;
  trial: boolean;
  cancelled: boolean;
}

/**
 * A year of selling for the demo subscribers: paid subscriptions (some renewed, some ending soon, some ended), trials
 * (open or lapsed), a few cancelled, and a third who never bought; each sale paid with a reference, points consumed
 * on searches and downloads, the odd paid top-up, each ledger entry with the balance after it. Then every
 * subscriber's status and plan are derived from this, as the server keeps them, so no record contradicts another.
 */
export async function seedSubscriptionHistory(db: Queryable, random: () => number): Promise<void> {
  const subscribers = entityResource(MODULE.subscribers);
  const plans = entityResource(MODULE.subscriptionPlans);
  if (!subscribers || !plans) return;
  const { points, price, validityDays } = SUBSCRIPTION_PLAN_FIELDS;
  const planRows = await db.query<Plan>(
    `SELECT id, ${quoted(points.field)} AS points, ${quoted(price.field)}::text AS price, ${quoted(validityDays.field)} AS validity_days
       FROM ${quoted(plans.entity.table)} ORDER BY id`,
  );
  const ids = await db.query<{ id: number }>(`SELECT id FROM ${quoted(subscribers.entity.table)} ORDER BY id`);
  if (planRows.length === 0) return;
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  const sales: Sale[] = [];
  for (const { id } of ids) {
    const subscriber = Number(id);
    const plan = planRows[Math.floor(random() * planRows.length)]!;
    const roll = random();
    if (roll < 0.55) {
      // Paid: began up to a plan's validity plus 200 days ago; half of those that ended were renewed at once.
      const startsAt = today - (5 + Math.floor(random() * (plan.validity_days + 200))) * DAY_MS;
      sales.push({ subscriber, plan, startsAt, days: plan.validity_days, trial: false, cancelled: false });
      const endsAt = startsAt + (plan.validity_days - 1) * DAY_MS;
      if (endsAt < today + EXPIRING_DAYS * DAY_MS && random() < 0.5)
        sales.push({
          subscriber,
          plan,
          startsAt: endsAt + DAY_MS,
          days: plan.validity_days,
          trial: false,
          cancelled: false,
        });
    } else if (roll < 0.67) {
      sales.push({
        subscriber,
        plan,
        startsAt: today - Math.floor(random() * 30) * DAY_MS,
        days: TRIAL_DAYS,
        trial: true,
        cancelled: false,
      });
    } else if (roll < 0.7) {
      sales.push({
        subscriber,
        plan,
        startsAt: today - Math.floor(random() * 60) * DAY_MS,
        days: plan.validity_days,
        trial: false,
        cancelled: true,
      });
    }
  }
  if (sales.length === 0) return;
  const inserted = await db.query<{ id: number }>(
    `INSERT INTO subscriber_subscriptions (subscriber_id, plan_id, starts_on, ends_on, is_trial, points, list_price, discount, amount_due, amount_paid, payment_reference, cancelled_at, created_at)
     SELECT s, p, d, e, t, pts, price, 0, price, price, ref, c, at
       FROM unnest($1::bigint[], $2::bigint[], $3::date[], $4::date[], $5::boolean[], $6::bigint[], $7::numeric[], $8::text[], $9::timestamptz[], $10::timestamptz[])
            AS v(s, p, d, e, t, pts, price, ref, c, at)
     RETURNING id`,
    [
      sales.map((sale) => sale.subscriber),
      sales.map((sale) => sale.plan.id),
      sales.map((sale) => isoDate(sale.startsAt)),
      sales.map((sale) => isoDate(sale.startsAt + (sale.days - 1) * DAY_MS)),
      sales.map((sale) => sale.trial),
      sales.map((sale) => sale.plan.points),
      sales.map((sale) => (sale.trial ? '0' : sale.plan.price)),
      sales.map((sale, index) => (sale.trial ? null : `NEFT${String(202_600_000 + index)}`)),
      sales.map((sale) =>
        sale.cancelled ? new Date(Math.min(today, sale.startsAt + 10 * DAY_MS)).toISOString() : null,
      ),
      sales.map((sale) => new Date(Math.min(sale.startsAt, today)).toISOString()),
    ],
  );
  await seedLedgerAndPayments(
    db,
    sales,
    inserted.map((row) => Number(row.id)),
    today,
    random,
  );
  await db.query(
    `UPDATE ${quoted(subscribers.entity.table)} t SET ${quoted(SUBSCRIBER_FIELDS.status.field)} = d.status, ${quoted(SUBSCRIBER_FIELDS.plan.field)} = d.plan_id
       FROM ${quoted(subscribers.entity.table)} s, LATERAL subscription_state(s.id, current_date, $1) d WHERE t.id = s.id`,
    [EXPIRING_DAYS],
  );
}

/** Points bought, consumed and topped up, the balance after each entry, and a payment for each paid entry. */
async function seedLedgerAndPayments(
  db: Queryable,
  sales: Sale[],
  subscriptionIds: number[],
  today: number,
  random: () => number,
): Promise<void> {
  const subscribers = entityResource(MODULE.subscribers)!;
  const ledger: Array<{
    subscriber: number;
    kind: string;
    points: number;
    amount: string;
    balance: number;
    note: string;
    subscription: number | null;
    at: number;
  }> = [];
  const balances = new Map<number, number>();
  for (const [index, sale] of sales.entries()) {
    const soldAt = Math.min(sale.startsAt, today);
    let balance = (balances.get(sale.subscriber) ?? 0) + Number(sale.plan.points);
    const amount = sale.trial ? '0' : sale.plan.price;
    ledger.push({
      subscriber: sale.subscriber,
      kind: 'subscription',
      points: Number(sale.plan.points),
      amount,
      balance,
      note: sale.trial ? 'Trial' : 'Plan purchase',
      subscription: subscriptionIds[index]!,
      at: soldAt,
    });
    const until = Math.min(today, sale.startsAt + (sale.days - 1) * DAY_MS);
    let at = sale.startsAt;
    while ((at += (5 + Math.floor(random() * 25)) * DAY_MS) < until) {
      if (!sale.trial && random() < 0.15) {
        const points = 500 * (1 + Math.floor(random() * 4));
        balance += points;
        ledger.push({
          subscriber: sale.subscriber,
          kind: 'top_up',
          points,
          amount: String(points * 2),
          balance,
          note: 'Top-up',
          subscription: null,
          at,
        });
      }
      const spent = Math.min(balance, 20 + Math.floor(random() * 180));
      if (spent <= 0) continue;
      balance -= spent;
      ledger.push({
        subscriber: sale.subscriber,
        kind: 'consumption',
        points: -spent,
        amount: '0',
        balance,
        note: random() < 0.5 ? 'Shipment search' : 'Data download',
        subscription: null,
        at,
      });
    }
    balances.set(sale.subscriber, balance);
  }
  ledger.sort((a, b) => a.at - b.at);
  await db.query(
    `INSERT INTO points_ledger (subscriber_id, kind, points, amount, balance_after, note, subscription_id, created_at)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::numeric[], $5::bigint[], $6::text[], $7::bigint[], $8::timestamptz[])`,
    [
      ledger.map((entry) => entry.subscriber),
      ledger.map((entry) => entry.kind),
      ledger.map((entry) => entry.points),
      ledger.map((entry) => entry.amount),
      ledger.map((entry) => entry.balance),
      ledger.map((entry) => entry.note),
      ledger.map((entry) => entry.subscription),
      ledger.map((entry) => new Date(entry.at).toISOString()),
    ],
  );
  await db.query(
    `INSERT INTO payments (subscriber_id, kind, amount, reference, subscription_id, ledger_entry_id, received_at)
     SELECT l.subscriber_id, l.kind, l.amount, coalesce(s.payment_reference, 'UPI' || l.id), l.subscription_id, l.id, l.created_at
       FROM points_ledger l LEFT JOIN subscriber_subscriptions s ON s.id = l.subscription_id
      WHERE l.kind IN ('subscription', 'top_up') AND l.amount > 0`,
  );
  await db.query(
    `UPDATE ${quoted(subscribers.entity.table)} AS s SET ${quoted(SUBSCRIBER_FIELDS.pointsBalance.field)} = v.balance
       FROM unnest($1::bigint[], $2::bigint[]) AS v(id, balance) WHERE s.id = v.id`,
    [[...balances.keys()], [...balances.values()]],
  );
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
