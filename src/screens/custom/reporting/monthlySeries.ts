import { humanize } from '../../shared/humanize.ts';

/** A chart's data: one value per month for each named series. */
export interface MonthlySeries {
  /** `YYYY-MM`, every month of the chosen period in order, those without activity too. */
  months: string[];
  series: { label: string; values: number[] }[];
}

type Point = Record<string, unknown>;

/** Every month from the one of `from` to the one of `to` (dates or months, `YYYY-MM[-DD]`), in order. */
export function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  let year = Number(from.slice(0, 4));
  let month = Number(from.slice(5, 7));
  const last = to.slice(0, 7);
  for (let guard = 0; guard < 1200; guard += 1) {
    const current = `${year}-${String(month).padStart(2, '0')}`;
    if (current > last) break;
    months.push(current);
    month = month === 12 ? 1 : month + 1;
    if (month === 1) year += 1;
  }
  return months;
}

/**
 * A report series by month as a chart and a table read it, over every month of the period (a month without activity
 * is a 0, so every chart of a period has the same axis). Points are `{ month, <number>... }` (each numeric key a
 * series, named in words) or long rows `{ month, <name>, <number> }` (each name a series as the data names it, e.g.
 * a plan).
 */
export function monthlySeries(points: readonly Point[], period: { from: string; to: string }): MonthlySeries {
  const months = [
    ...new Set([...monthsBetween(period.from, period.to), ...points.map((point) => String(point.month))]),
  ].sort();
  const first = points[0] ?? {};
  const keyOf = Object.keys(first).find((key) => key !== 'month' && typeof first[key] === 'string');
  const numeric = Object.keys(first).filter((key) => key !== 'month' && typeof first[key] === 'number');
  const values = new Map<string, number[]>();
  const add = (label: string, month: string, value: number) => {
    const row = values.get(label) ?? months.map(() => 0);
    row[months.indexOf(month)] = (row[months.indexOf(month)] ?? 0) + value;
    values.set(label, row);
  };
  for (const point of points) {
    const month = String(point.month);
    if (keyOf && numeric.length === 1) add(String(point[keyOf]), month, Number(point[numeric[0] ?? '']));
    else for (const key of numeric) add(humanize(key), month, Number(point[key]));
  }
  return { months, series: [...values].map(([label, row]) => ({ label, values: row })) };
}

/** Nothing happened in the period: no series, or only zeros. */
export function isEmpty(data: MonthlySeries): boolean {
  return data.series.every((series) => series.values.every((value) => value === 0));
}
