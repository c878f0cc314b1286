import type { ReviewThresholds } from '../../../contract/uploadReview.ts';
import type { Queryable } from '../../db/database.ts';

/** The thresholds an import is checked against until an administrator changes them (docs/api.md says why each). */
export const DEFAULT_THRESHOLDS: Readonly<ReviewThresholds> = {
  hold: true,
  row_count_change: 0.4,
  value_change: 0.5,
  quantity_change: 0.5,
  rejected_share: 0.05,
  outside_period_share: 0.01,
  duplicate_share: 0.02,
  hs_chapter_share: 0.05,
  empty_party_change: 0.2,
  unit_value_factor: 3,
  unit_value_min_rows: 20,
};

/** The thresholds in force: the stored ones over the defaults (a threshold added later starts at its default). */
export async function reviewThresholds(db: Queryable): Promise<ReviewThresholds> {
  const [row] = await db.query<{ thresholds: Partial<ReviewThresholds> | string }>(
    'SELECT thresholds FROM upload_review_settings WHERE id',
  );
  const stored =
    typeof row?.thresholds === 'string'
      ? (JSON.parse(row.thresholds) as Partial<ReviewThresholds>)
      : (row?.thresholds ?? {});
  return { ...DEFAULT_THRESHOLDS, ...stored };
}

/** Stores the thresholds that differ from their defaults; answers the thresholds before and after. */
export async function saveReviewThresholds(
  tx: Queryable,
  thresholds: ReviewThresholds,
  userId: number | null,
): Promise<{ before: ReviewThresholds; after: ReviewThresholds }> {
  await tx.query('INSERT INTO upload_review_settings (id) VALUES (true) ON CONFLICT (id) DO NOTHING');
  await tx.query('SELECT id FROM upload_review_settings WHERE id FOR UPDATE');
  const before = await reviewThresholds(tx);
  const changed = Object.fromEntries(
    Object.entries(thresholds).filter(([name, value]) => DEFAULT_THRESHOLDS[name as keyof ReviewThresholds] !== value),
  );
  await tx.query(
    'UPDATE upload_review_settings SET thresholds = $1::jsonb, updated_by = $2, updated_at = now() WHERE id',
    [JSON.stringify(changed), userId],
  );
  return { before, after: { ...DEFAULT_THRESHOLDS, ...changed } };
}
