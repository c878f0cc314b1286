import type { Queryable } from '../../db/database.ts';
import { validationError } from '../../http/errors.ts';
import { MODULE, VOUCHER_FIELDS, entityResource, type DiscountType } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import type { WriteContext } from '../resources/behaviours.ts';
import { dateText, toPaise } from './money.ts';
import { planNameSql } from './planName.ts';

/** A voucher as a sale reads it, by the fields the vouchers' contract names (`VOUCHER_FIELDS`). */
type VoucherRow = {
  id: number;
  code: string;
  is_active: boolean;
  discount_type: DiscountType;
  discount_value: string;
  max_discount: string | null;
  valid_from: string | null;
  valid_to: string | null;
  usage_limit: number | null;
  used_count: number | null;
  plan_id: number | null;
  plan_label: string | null;
  today: string;
};

/** The voucher's contract fields, each as `v.<its column>::<cast> AS <the row's key>`. */
function voucherColumns(): string {
  const { code, discountType, discountValue, maxDiscount, validFrom, validTo, usageLimit, usedCount, plan } =
    VOUCHER_FIELDS;
  const column = (field: { field: string }, cast: string, as: keyof VoucherRow) =>
    `v.${quoted(field.field)}::${cast} AS ${as}`;
  return [
    column(code, 'text', 'code'),
    column(discountType, 'text', 'discount_type'),
    column(discountValue, 'numeric::text', 'discount_value'),
    column(maxDiscount, 'numeric::text', 'max_discount'),
    column(validFrom, 'text', 'valid_from'),
    column(validTo, 'text', 'valid_to'),
    column(usageLimit, 'bigint', 'usage_limit'),
    column(usedCount, 'bigint', 'used_count'),
    column(plan, 'bigint', 'plan_id'),
  ].join(', ');
}

export interface AppliedVoucher {
  id: number;
  code: string;
  discountPaise: number;
}

/** A code as people type it: spaces around it dropped, letters upper-cased (codes are capitals and digits). */
export function voucherCode(typed: string | undefined): string | null {
  const code = typed?.trim().toUpperCase();
  return code ? code : null;
}

/**
 * The voucher of `code` checked for a sale of `planId` at `listPaise` today: active, within its dates, under its
 * usage limit, valid for the plan. Answers its discount, at most the price. `lock` reads it FOR UPDATE, so two sales
 * using its last use queue up and the second sees it used.
 */
export async function checkedVoucher(
  db: Queryable,
  code: string,
  planId: number,
  listPaise: number,
  lock = false,
): Promise<AppliedVoucher> {
  const vouchers = entityResource(MODULE.vouchers);
  if (!vouchers) throw validationError({ voucher_code: 'Vouchers are not used by this console.' });
  const plans = entityResource(MODULE.subscriptionPlans);
  const planColumn = `v.${quoted(VOUCHER_FIELDS.plan.field)}`;
  const planLabel = plans ? planNameSql(plans.entity.table, planColumn) : 'NULL::text';
  const [voucher] = await db.query<VoucherRow>(
    `SELECT v.id, v.is_active, ${voucherColumns()}, ${planLabel} AS plan_label, current_date::text AS today
       FROM ${quoted(vouchers.entity.table)} v
      WHERE upper(v.${quoted(VOUCHER_FIELDS.code.field)}) = $1${lock ? ' FOR UPDATE OF v' : ''}`,
    [code],
  );
  if (!voucher) throw validationError({ voucher_code: 'No voucher has this code.' });
  const refuse = (reason: string) => validationError({ voucher_code: reason });
  if (!voucher.is_active) throw refuse('This voucher is not active.');
  if (voucher.valid_from && voucher.today < voucher.valid_from)
    throw refuse(`This voucher is valid from ${dateText(voucher.valid_from)}.`);
  if (voucher.valid_to && voucher.today > voucher.valid_to)
    throw refuse(`This voucher expired on ${dateText(voucher.valid_to)}.`);
  if (voucher.usage_limit !== null && Number(voucher.used_count ?? 0) >= Number(voucher.usage_limit))
    throw refuse('This voucher has been used up.');
  if (voucher.plan_id !== null && Number(voucher.plan_id) !== planId)
    throw refuse(`This voucher is for the ${voucher.plan_label ?? 'other'} plan.`);
  return { id: Number(voucher.id), code: voucher.code, discountPaise: discountOf(voucher, listPaise) };
}

function discountOf(
  voucher: Pick<VoucherRow, 'discount_type' | 'discount_value' | 'max_discount'>,
  listPaise: number,
): number {
  if (voucher.discount_type === 'flat') return Math.min(toPaise(voucher.discount_value), listPaise);
  const percent = Math.round((listPaise * Number(voucher.discount_value)) / 100);
  const capped = voucher.max_discount === null ? percent : Math.min(percent, toPaise(voucher.max_discount));
  return Math.min(capped, listPaise);
}

/**
 * Counts one use of a voucher checked with `lock` in this transaction, through the record operations (its version,
 * audit entry and history move as for any change of a voucher).
 */
export async function countVoucherUse(
  context: WriteContext,
  voucher: AppliedVoucher,
  subscriptionId: number,
): Promise<void> {
  const vouchers = entityResource(MODULE.vouchers)!;
  const usedCount = VOUCHER_FIELDS.usedCount.field;
  const [row] = await context.tx.query<{ used_count: number | null }>(
    `SELECT ${quoted(usedCount)}::bigint AS used_count FROM ${quoted(vouchers.entity.table)} WHERE id = $1`,
    [voucher.id],
  );
  const values = { [usedCount]: Number(row?.used_count ?? 0) + 1 };
  await context.app.records
    .of(vouchers)
    .change(
      context,
      [voucher.id],
      values,
      { expected: 'any', values },
      { action: 'update', details: { used_by_subscription: subscriptionId } },
    );
}
