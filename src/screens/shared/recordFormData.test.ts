import { describe, expect, it } from 'vitest';
import { vouchers } from '../testing/fixtures.ts';
import { rebaseFormData } from './recordFormData.ts';

describe('rebaseFormData', () => {
  it('keeps what the user typed, takes the newer value of a field they left alone, and says where both changed it', () => {
    const opened = { code: 'SUMMER', discount_type: 'percent', discount_value: 5, valid_to: '2026-08-31' };
    const typed = { code: 'SUMMER26', discount_type: 'percent', discount_value: 8, valid_to: '2026-08-31' };
    const latest = { code: 'SUMMER', discount_type: 'flat', discount_value: 6 };
    expect(rebaseFormData(vouchers.entity!, opened, typed, latest)).toEqual({
      data: { code: 'SUMMER26', discount_type: 'flat', discount_value: 8 },
      changed: ['Discount type', 'Discount value', 'Valid to'],
      keptTyped: ['Discount value'],
    });
  });

  it('changes nothing when the newer read has the same values', () => {
    const opened = { code: 'SUMMER', discount_value: 5 };
    expect(rebaseFormData(vouchers.entity!, opened, { code: 'X', discount_value: 5 }, { ...opened })).toEqual({
      data: { code: 'X', discount_value: 5 },
      changed: [],
      keptTyped: [],
    });
  });
});
