import type { ContractField } from './moduleContract.ts';

/** The kinds of discount a voucher gives, which a sale tells apart: a percent of the price, or an amount off it. */
export const DISCOUNT_TYPES = ['percent', 'flat'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/**
 * What a sale reads from the voucher a subscriber's code names, of the vouchers module (`MODULE.vouchers`): its code,
 * the kind and size of its discount and the cap on a percent one, the dates it is valid between, how often it may be
 * used and has been, and the plan it is for. The codegen refuses a manifest whose vouchers lack one, give it another
 * type or format, leave out a kind of discount, or let people type the uses the sales count.
 */
export const VOUCHER_FIELDS = {
  code: { field: 'code', type: 'string', givenBy: 'people', readBy: 'a sale finds the voucher by the code typed' },
  discountType: {
    field: 'discount_type',
    type: 'string',
    givenBy: 'people',
    values: DISCOUNT_TYPES,
    readBy: 'a sale takes a percent of the price off, or a flat amount',
  },
  discountValue: {
    field: 'discount_value',
    type: 'number',
    givenBy: 'people',
    readBy: 'a sale takes that percent, or that many rupees, off the price',
  },
  maxDiscount: {
    field: 'max_discount',
    type: 'number',
    format: 'money',
    givenBy: 'people',
    mayBeEmpty: true,
    readBy: 'a sale caps a percent discount at it (empty: no cap)',
  },
  validFrom: {
    field: 'valid_from',
    type: 'string',
    format: 'date',
    givenBy: 'people',
    mayBeEmpty: true,
    readBy: 'a sale before that day is refused (empty: from any day)',
  },
  validTo: {
    field: 'valid_to',
    type: 'string',
    format: 'date',
    givenBy: 'people',
    mayBeEmpty: true,
    readBy: 'a sale after that day is refused (empty: to any day)',
  },
  usageLimit: {
    field: 'usage_limit',
    type: 'integer',
    givenBy: 'people',
    mayBeEmpty: true,
    readBy: 'a sale is refused once the voucher has been used that many times (empty: no limit)',
  },
  usedCount: {
    field: 'used_count',
    type: 'integer',
    givenBy: 'server',
    readBy: 'each sale with the voucher counts one use, which its usage limit is held to',
  },
  plan: {
    field: 'plan_id',
    type: 'integer',
    givenBy: 'people',
    mayBeEmpty: true,
    readBy: 'a sale of another plan is refused (empty: any plan)',
  },
} as const satisfies Record<string, ContractField>;
