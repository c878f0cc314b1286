// How the review says its figures: each check's label, and the numbers in its sentence.
import type { ReviewCheckKey } from '../../../contract/uploadReview.ts';

export const CHECK_LABELS: Record<ReviewCheckKey, string> = {
  row_count_change: 'Accepted rows',
  value_change: 'Total value',
  quantity_change: 'Total quantity',
  rejected_share: 'Rows rejected',
  outside_period_share: 'Shipments dated outside the period',
  duplicate_share: 'Shipments repeated within the file',
  hs_chapters_changed: 'HS chapters new or missing',
  empty_importer_change: 'Rows without an importer',
  empty_exporter_change: 'Rows without an exporter',
  unit_value_change: 'Value per unit by HS chapter',
};

export function ratio(part: number, whole: number): number {
  return whole > 0 ? part / whole : 0;
}

export function limit(threshold: number, flagged: boolean): string {
  return `${flagged ? 'more than' : 'within'} the ${percent(threshold)} allowed`;
}

export function percent(fraction: number): string {
  const value = fraction * 100;
  return `${value >= 10 || value === 0 ? Math.round(value) : value.toFixed(1)}%`;
}

export function points(fraction: number): string {
  return `${fraction >= 0 ? '+' : '−'}${Math.round(Math.abs(fraction) * 100)} points`;
}

export function count(value: number): string {
  return Math.round(value).toLocaleString('en');
}

export function amount(value: number): string {
  return value.toLocaleString('en', { maximumFractionDigits: 2 });
}
