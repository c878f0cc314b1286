/**
 * How the report charts' axes read: values in the chart's own format, and never more month labels than fit side by
 * side at the chart's width (a desktop shows every month, a phone every few).
 */

/** Room one month label needs on the axis, gap included ("Sep 2026" at the chart's 12 px font). */
export const MONTH_LABEL_PX = 72;
const MONTH_STEPS = [1, 2, 3, 4, 6, 12];

/** The month indexes to label: every month when they fit, else every 2nd, 3rd, ... month, so no labels overlap. */
export function monthTicks(count: number, plotWidthPx: number): number[] {
  if (count <= 0) return [];
  const perMonth = plotWidthPx / count;
  const step =
    MONTH_STEPS.find((candidate) => candidate * perMonth >= MONTH_LABEL_PX) ??
    Math.ceil(MONTH_LABEL_PX / Math.max(perMonth, 1));
  return Array.from({ length: Math.ceil(count / step) }, (_, index) => index * step);
}

/** Tick steps for values: whole numbers only (counts and rupees), 1, 2, 5, 10, 20, 50, ... */
export const VALUE_STEPS = Array.from({ length: 12 }, (_, power) => [1, 2, 5].map((base) => base * 10 ** power)).flat();

/** The width the value axis needs for its longest label, so that none is cut off. */
export function valueAxisWidth(labels: readonly string[]): number {
  const longest = labels.reduce((max, label) => Math.max(max, label.length), 1);
  return Math.ceil(longest * 7.5) + 18;
}
