import { describe, expect, it } from 'vitest';
import { legendMonth } from './legendMonth.ts';

const data = {
  months: ['2026-08', '2026-09', '2026-10', '2026-11'],
  series: [
    { label: 'Pro', values: [1, 0, 4, 0] },
    { label: 'Starter', values: [0, 2, 0, 0] },
  ],
};

describe('the report legend month', () => {
  it('is the hovered month while the pointer is on the chart', () => {
    expect(legendMonth(data, 1)).toBe(1);
    expect(legendMonth(data, 0)).toBe(0);
  });

  it('is the latest month with activity before anyone hovers, so the legend shows a month and its values', () => {
    expect(legendMonth(data, null)).toBe(2);
  });

  it("is the period's last month when nothing happened", () => {
    expect(legendMonth({ months: ['2026-10', '2026-11'], series: [{ label: 'Uploads', values: [0, 0] }] }, null)).toBe(
      1,
    );
  });
});
