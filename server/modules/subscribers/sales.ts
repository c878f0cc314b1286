import type { FastifyInstance } from 'fastify';
import type { Queryable, Row } from '../../db/database.ts';
import { HttpError, notFound, validationError } from '../../http/errors.ts';
import { MODULE, SUBSCRIPTION_PLAN_FIELDS, VOUCHER_FIELDS, entityResource } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import type { WriteContext } from '../resources/behaviours.ts';
import { recordAudit } from '../audit/record.ts';
import { toPaise, toRupees, rupeesText } from './money.ts';
import { addLedgerEntry } from './points.ts';
import { SUBSCRIPTION_STATE, planLabelSql } from './routeParts.ts';
import { keepSubscriberState } from './subscriberState.ts';
import { checkedVoucher, countVoucherUse, voucherCode, type AppliedVoucher } from './vouchers.ts';

/** What a sale asks for: the manifest's ADD_SUBSCRIPTION form. */
export interface SaleRequest {
  plan_id: number;
  starts_on: string;
  is_trial?: boolean;
  voucher_code?: string;
  amount_paid: number;
  payment_reference?: string;
}

/** A plan of the subscription-plans module, by the fields its contract names (`SUBSCRIPTION_PLAN_FIELDS`). */
interface Plan {
  id: number;
  name: string;
  points: number;
  pricePaise: number;
  validityDays: number;
}

export interface Quote {
  plan: Plan;
  voucher: AppliedVoucher | null;
  listPaise: number;
  discountPaise: number;
  duePaise: number;
  days: number | null;
}

/** The price of a sale: the plan's list price, less the voucher's discount; a trial is free and lasts the trial days. */
export async function quoteSale(
  app: FastifyInstance,
  db: Queryable,
  sale: Pick<SaleRequest, 'plan_id' | 'is_trial' | 'voucher_code'>,
  lock = false,
): Promise<Quote> {
  const plan = await loadPlan(db, sale.plan_id);
  const code = voucherCode(sale.voucher_code);
  if (sale.is_trial) {
    if (code) throw validationError({ voucher_code: 'A trial is free: it takes no voucher.' });
    return {
      plan,
      voucher: null,
      listPaise: 0,
      discountPaise: 0,
      duePaise: 0,
      days: app.config.subscriptions.trialDays,
    };
  }
  const voucher = code ? await checkedVoucher(db, code, plan.id, plan.pricePaise, lock) : null;
  const discountPaise = voucher?.discountPaise ?? 0;
  return {
    plan,
    voucher,
    listPaise: plan.pricePaise,
    discountPaise,
    duePaise: plan.pricePaise - discountPaise,
    days: plan.validityDays,
  };
}

/** The quote as the API answers it. */
export function quoteAnswer(quote: Quote) {
  return {
    list_price: toRupees(quote.listPaise),
    discount: toRupees(quote.discountPaise),
    amount_due: toRupees(quote.duePaise),
    days: quote.days,
    voucher_code: quote.voucher?.code ?? null,
  };
}

/**
 * Sells a subscription in the caller's transaction: the subscription with its money, the voucher's use counted, the
 * plan's points credited, the payment recorded, and the subscriber's status and plan brought up to date.
 */
export async function sellSubscription(context: WriteContext, subscriberId: number, sale: SaleRequest) {
  const { tx, app } = context;
  const quote = await quoteSale(app, tx, sale, true);
  const paidPaise = toPaise(sale.amount_paid);
  if (paidPaise > quote.duePaise)
    throw validationError({ amount_paid: `More than the amount due, ${rupeesText(quote.duePaise)}.` });
  const userId = context.user?.id ?? null;
  const reference = sale.payment_reference?.trim() || null;
  const [subscription] = await tx.query<Row & { id: number }>(
    `INSERT INTO subscriber_subscriptions
       (subscriber_id, plan_id, starts_on, ends_on, is_trial, points, list_price, voucher_id, discount, amount_due, amount_paid, payment_reference, created_by)
     VALUES ($1, $2, $3::date, CASE WHEN $4::int IS NULL THEN NULL ELSE $3::date + $4::int - 1 END, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     RETURNING *`,
    [
      subscriberId,
      quote.plan.id,
      sale.starts_on,
      quote.days,
      Boolean(sale.is_trial),
      quote.plan.points,
      toRupees(quote.listPaise),
      quote.voucher?.id ?? null,
      toRupees(quote.discountPaise),
      toRupees(quote.duePaise),
      toRupees(paidPaise),
      reference,
      userId,
    ],
  );
  const subscriptionId = Number(subscription!.id);
  if (quote.voucher) await countVoucherUse(context, quote.voucher, subscriptionId);
  const { entry } = await addLedgerEntry(tx, subscriberId, {
    kind: 'subscription',
    points: quote.plan.points,
    amount: toRupees(paidPaise),
    note: `${sale.is_trial ? 'Trial of' : 'Subscription to'} ${quote.plan.name}`,
    idempotencyKey: null,
    subscriptionId,
    userId,
  });
  const payment =
    paidPaise > 0
      ? await recordPayment(tx, {
          subscriberId,
          kind: 'subscription',
          amount: toRupees(paidPaise),
          reference,
          subscriptionId,
          ledgerEntryId: Number(entry.id),
          userId,
        })
      : null;
  const details = {
    subscription_id: subscriptionId,
    plan_id: quote.plan.id,
    plan: quote.plan.name,
    is_trial: Boolean(sale.is_trial),
    starts_on: sale.starts_on,
    list_price: toRupees(quote.listPaise),
    voucher: quote.voucher?.code ?? null,
    discount: toRupees(quote.discountPaise),
    amount_due: toRupees(quote.duePaise),
    amount_paid: toRupees(paidPaise),
    payment_reference: reference,
  };
  await recordSubscriberChange(context, subscriberId, { action: 'subscribe', details });
  return { subscription: subscription!, ledger_entry: entry, payment, details };
}

/** Cancels a subscription that has not ended; its subscriber's status and plan follow. */
export async function cancelSubscription(context: WriteContext, subscriberId: number, subscriptionId: number) {
  const [cancelled] = await context.tx.query<Row>(
    `UPDATE subscriber_subscriptions SET cancelled_at = now(), cancelled_by = $3
      WHERE id = $1 AND subscriber_id = $2 AND cancelled_at IS NULL AND (ends_on IS NULL OR ends_on >= current_date)
      RETURNING *`,
    [subscriptionId, subscriberId, context.user?.id ?? null],
  );
  if (!cancelled) {
    const [exists] = await context.tx.query(
      'SELECT 1 FROM subscriber_subscriptions WHERE id = $1 AND subscriber_id = $2',
      [subscriptionId, subscriberId],
    );
    if (!exists) throw notFound('Subscription');
    throw new HttpError(409, 'This subscription has already ended or been cancelled.');
  }
  await recordSubscriberChange(context, subscriberId, {
    action: 'subscription_cancel',
    details: { subscription_id: subscriptionId },
  });
  return cancelled;
}

/**
 * The subscriber's status and plan brought up to date, with the sale or cancellation as their audit entry's details;
 * when they stay as they were, the entry records the details alone.
 */
async function recordSubscriberChange(
  context: WriteContext,
  subscriberId: number,
  entry: { action: 'subscribe' | 'subscription_cancel'; details: Record<string, unknown> },
): Promise<void> {
  const changed = await keepSubscriberState(
    context,
    [subscriberId],
    context.app.config.subscriptions.expiringDays,
    entry,
  );
  if (changed.length === 0)
    await recordAudit(context.tx, context.actor, { module: MODULE.subscribers, recordId: subscriberId, ...entry });
}

export async function recordPayment(
  tx: Queryable,
  payment: {
    subscriberId: number;
    kind: 'subscription' | 'top_up';
    amount: number;
    reference: string | null;
    subscriptionId: number | null;
    ledgerEntryId: number | null;
    userId: number | null;
  },
): Promise<Row> {
  const [row] = await tx.query(
    `INSERT INTO payments (subscriber_id, kind, amount, reference, subscription_id, ledger_entry_id, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7)
     RETURNING id, kind, amount, reference, subscription_id, ledger_entry_id, received_at`,
    [
      payment.subscriberId,
      payment.kind,
      payment.amount,
      payment.reference,
      payment.subscriptionId,
      payment.ledgerEntryId,
      payment.userId,
    ],
  );
  return row!;
}

/** An active plan, by the fields the codegen holds the manifest to declare (each present, of its type, required). */
async function loadPlan(db: Queryable, planId: number): Promise<Plan> {
  const plans = entityResource(MODULE.subscriptionPlans);
  if (!plans) throw validationError({ plan_id: 'The selected record does not exist.' });
  const { name, points, price, validityDays } = SUBSCRIPTION_PLAN_FIELDS;
  const [row] = await db.query<{ id: number; name: string; points: string; price: string; validity_days: number }>(
    `SELECT id, ${quoted(name.field)}::text AS name, ${quoted(points.field)}::bigint AS points,
            ${quoted(price.field)}::numeric::text AS price, ${quoted(validityDays.field)}::int AS validity_days
       FROM ${quoted(plans.entity.table)} WHERE id = $1 AND is_active`,
    [planId],
  );
  if (!row) throw validationError({ plan_id: 'The selected record does not exist.' });
  return {
    id: Number(row.id),
    name: row.name,
    points: Number(row.points),
    pricePaise: toPaise(row.price),
    validityDays: Number(row.validity_days),
  };
}

/** A subscriber's subscriptions, newest first, at most 500: each with its plan's name, its voucher's code, its state. */
export function subscriptionsOf(db: Queryable, subscriberId: number): Promise<Row[]> {
  const vouchers = entityResource(MODULE.vouchers);
  const code = vouchers
    ? `(SELECT v.${quoted(VOUCHER_FIELDS.code.field)}::text FROM ${quoted(vouchers.entity.table)} v WHERE v.id = s.voucher_id)`
    : 'NULL::text';
  return db.query(
    `SELECT s.*, ${planLabelSql()} AS plan_label, ${code} AS voucher_code, ${SUBSCRIPTION_STATE} AS state
       FROM subscriber_subscriptions s WHERE s.subscriber_id = $1 ORDER BY s.starts_on DESC, s.id DESC LIMIT 500`,
    [subscriberId],
  );
}

/** A subscriber's payments, newest first, at most 500, each with what it paid for: its points or its plan. */
export function paymentsOf(db: Queryable, subscriberId: number): Promise<Row[]> {
  return db.query(
    `SELECT y.id, y.kind, y.amount, y.reference, y.subscription_id, y.ledger_entry_id, y.received_at,
            CASE WHEN y.kind = 'top_up' THEN coalesce(l.points, 0) || ' points' ELSE (SELECT ${planLabelSql()} FROM subscriber_subscriptions s WHERE s.id = y.subscription_id) END AS note
       FROM payments y LEFT JOIN points_ledger l ON l.id = y.ledger_entry_id
      WHERE y.subscriber_id = $1 ORDER BY y.received_at DESC, y.id DESC LIMIT 500`,
    [subscriberId],
  );
}
