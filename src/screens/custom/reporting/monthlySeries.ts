/** A chart's data: one value per month for each named series. */
export interface MonthlySeries {
  months: string[];
  series: { label: string; values: number[] }[];
}

type Point = Record<string, unknown>;

/**
 * A report series by month as a chart and a table read it. Points are `{ month, <number>... }` (each
 * numeric key a series) or long rows `{ month, <name>, <number> }` (each name a series, e.g. per plan).
 */
export function monthlySeries(points: readonly Point[]): MonthlySeries {
  const months = [...new Set(points.map((point) => String(point.month)))].sort();
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
    else for (const key of numeric) add(key, month, Number(point[key]));
  }
  return { months, series: [...values].map(([label, row]) => ({ label, values: row })) };
}
