import { formatMoney } from '../../shared/formatValue.ts';

const counts = new Intl.NumberFormat('en-IN');

/** A figure as people read it: a count with Indian grouping, or rupees (₹1,23,456.50). */
export function formatFigure(value: number, unit: 'count' | 'rupees'): string {
  return unit === 'rupees' ? formatMoney(value) : counts.format(value);
}

/** This month against the last, in words: "+12 on last month", "−₹500.00 on last month", "Same as last month". */
export function changeInWords(value: number, previous: number, unit: 'count' | 'rupees'): string {
  const change = Math.round((value - previous) * 100) / 100;
  if (change === 0) return 'Same as last month';
  return `${change > 0 ? '+' : '−'}${formatFigure(Math.abs(change), unit)} on last month`;
}
