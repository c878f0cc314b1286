import type { MonthlySeries } from './monthlySeries.ts';

/**
 * The month the chart's legend reads: the one under the pointer, else the latest with any activity (the period's last
 * when none has), so the legend says a month and its values before anyone hovers, never "—".
 */
export function legendMonth(data: MonthlySeries, hovered: number | null): number {
  if (hovered !== null) return hovered;
  for (let index = data.months.length - 1; index >= 0; index -= 1) {
    if (data.series.some((series) => (series.values[index] ?? 0) !== 0)) return index;
  }
  return data.months.length - 1;
}
