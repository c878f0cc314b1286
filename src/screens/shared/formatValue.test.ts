import { describe, expect, it } from 'vitest';
import * as voucherAreaChunk from '../../generated/areas/voucher-management.ts';
import * as planAreaChunk from '../../generated/areas/subscription-management.ts';
import type { FieldDescription } from '../../generated/types.ts';
import { joinArea } from '../../routing/areaModule.ts';
import { formatMoney, formatNumber, formatValue, unitOf } from './formatValue.ts';

/** A field as the generated description holds it (the manifest's own), so the test follows the manifest. */
function manifestField(chunk: Parameters<typeof joinArea>[0], module: string, name: string): FieldDescription {
  const resource = joinArea(chunk).resources.find((candidate) => candidate.module === module);
  const field = resource?.entity?.fields.find((candidate) => candidate.name === name);
  if (!field) throw new Error(`${module} has no field ${name}`);
  return field;
}

describe('formatValue: numbers in their unit', () => {
  const discount = manifestField(voucherAreaChunk, 'VOUCHER', 'discount_value');

  it("reads a voucher's discount by its type: a flat one in rupees, a percent one with %", () => {
    expect(formatValue(discount, { discount_type: 'flat', discount_value: 990 })).toBe('₹990.00');
    expect(formatValue(discount, { discount_type: 'percent', discount_value: 13 })).toBe('13%');
    expect(formatValue(discount, { discount_type: 'percent', discount_value: 12.5 })).toBe('12.5%');
  });

  it('without the type in the row, the discount is a plain number rather than a guess', () => {
    expect(formatValue(discount, { discount_value: 1500 })).toBe('1,500');
  });

  it("reads the manifest's rupee and percent fields with ₹ (Indian grouping, paise) and %", () => {
    expect(formatValue(manifestField(voucherAreaChunk, 'VOUCHER', 'max_discount'), { max_discount: 123456.5 })).toBe(
      '₹1,23,456.50',
    );
    expect(formatValue(manifestField(planAreaChunk, 'SUBSCRIPTIONS', 'price'), { price: 1999 })).toBe('₹1,999.00');
    expect(
      formatValue(manifestField(planAreaChunk, 'OFFER_MODULE', 'discount_percent'), { discount_percent: 20 }),
    ).toBe('20%');
  });

  it('money is what the manifest declares: a field of format "money" whatever its name, never a number by its name', () => {
    const field = (name: string, declared: Partial<FieldDescription>): FieldDescription => ({
      name,
      title: name,
      type: 'number',
      format: null,
      enum: null,
      enumLabels: null,
      required: false,
      writeOnly: false,
      system: false,
      relation: null,
      ...declared,
    });
    expect(formatValue(field('fare', { format: 'money', currency: 'INR' }), { fare: 123456.5 })).toBe('₹1,23,456.50');
    expect(formatValue(field('price', {}), { price: 1999 })).toBe('1,999');
    expect(formatValue(undefined, { amount: 250 }, 'amount')).toBe('250');
    expect(unitOf(undefined, {})).toBeNull();
    expect(formatValue(undefined, { points: 123456 }, 'points')).toBe('1,23,456');
    expect(formatNumber(7, null)).toBe('7');
    expect(formatMoney(0)).toBe('₹0.00');
  });

  it('an empty value reads as a dash whatever its unit', () => {
    expect(formatValue(discount, { discount_type: 'flat', discount_value: null })).toBe('—');
  });
});
