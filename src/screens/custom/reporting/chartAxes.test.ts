import { describe, expect, it } from 'vitest';
import { formatMonth } from '../../shared/formatValue.ts';
import { MONTH_LABEL_PX, monthTicks, valueAxisWidth, VALUE_STEPS } from './chartAxes.ts';
import { monthlySeries, monthsBetween } from './monthlySeries.ts';

describe('report chart axes', () => {
  it('names months as people write them', () => {
    expect(formatMonth('2026-09')).toBe('Sep 2026');
    expect(formatMonth('2025-12')).toBe('Dec 2025');
  });

  it('labels only as many months as fit side by side: every month on a desktop chart, every few on a phone', () => {
    // The plot widths of a chart at 1280 px (two charts a row) and at 390 px (one, minus the value axis).
    const desktop = monthTicks(12, 900);
    const phone = monthTicks(12, 230);
    expect(desktop).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(phone).toEqual([0, 4, 8]);
    for (const [count, width] of [
      [12, 900],
      [12, 230],
      [36, 300],
      [120, 390],
    ] as const) {
      const ticks = monthTicks(count, width);
      const apart = ((ticks[1] ?? 0) - (ticks[0] ?? 0)) * (width / count);
      expect(apart, `${count} months in ${width} px`).toBeGreaterThanOrEqual(MONTH_LABEL_PX);
    }
    expect(monthTicks(0, 500)).toEqual([]);
  });

  it('steps values in whole numbers and leaves the value axis room for its longest label', () => {
    expect(VALUE_STEPS.slice(0, 6)).toEqual([1, 2, 5, 10, 20, 50]);
    expect(VALUE_STEPS.every(Number.isInteger)).toBe(true);
    expect(valueAxisWidth(['₹0', '₹5,00,000', '₹15,00,000'])).toBeGreaterThan(valueAxisWidth(['0', '10']));
  });

  it('covers every month of the period, a month without activity as 0', () => {
    expect(monthsBetween('2025-11-15', '2026-02-01')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(monthlySeries([{ month: '2026-01', points: 5 }], { from: '2025-12-01', to: '2026-02-28' })).toEqual({
      months: ['2025-12', '2026-01', '2026-02'],
      series: [{ label: 'Points', values: [0, 5, 0] }],
    });
  });
});
