// An imported upload compared with the last published month of its country and trade direction, as the server stores
// it with the upload when its import ends and answers it to the review screen (GET uploads/:id/review). Type-only:
// shared by the server and the console.

/** The checks an import is held for, each against its threshold (ReviewThresholds has the same keys). */
export type ReviewCheckKey =
  | 'row_count_change'
  | 'value_change'
  | 'quantity_change'
  | 'rejected_share'
  | 'outside_period_share'
  | 'duplicate_share'
  | 'hs_chapters_changed'
  | 'empty_importer_change'
  | 'empty_exporter_change'
  | 'unit_value_change';

/**
 * Beyond which an import waits for a reviewer. Changes and shares are fractions (0.4 = 40%); `unit_value_factor` is a
 * factor either way (3 = three times higher or a third); `hold` false publishes every import (the comparison is still
 * stored). docs/api.md, "Review before publishing", says what each means and its default.
 */
export interface ReviewThresholds {
  hold: boolean;
  row_count_change: number;
  value_change: number;
  quantity_change: number;
  rejected_share: number;
  outside_period_share: number;
  duplicate_share: number;
  hs_chapter_share: number;
  empty_party_change: number;
  unit_value_factor: number;
  unit_value_min_rows: number;
}

/** One HS chapter (the HS code's first two digits) of an upload's accepted rows. */
export interface ChapterFigures {
  rows: number;
  value: number;
  /** The median of value / quantity over its rows with a quantity above zero; null when none has one. */
  unit_value_median: number | null;
}

/** What an upload's rows add up to, computed in SQL when its import ends. */
export interface UploadProfile {
  period: string;
  rows_total: number;
  rows_accepted: number;
  rows_rejected: number;
  value: number;
  quantity: number;
  /** Accepted rows whose shipment date is not in the upload's month. */
  outside_period: number;
  /** Accepted rows equal in every column to an earlier row of the same file. */
  duplicates: number;
  empty_importer: number;
  empty_exporter: number;
  chapters: Record<string, ChapterFigures>;
}

export interface ReviewCheck {
  key: ReviewCheckKey;
  /** What the check looks at, in words. */
  label: string;
  /** The figure compared with the threshold (a change or share as a fraction, a factor for unit values); null when not measured. */
  measured: number | null;
  threshold: number;
  /** This upload's and the compared upload's figure, where the check has them (rows, a total, a share). */
  current: number | null;
  previous: number | null;
  /** False when the check needs a published month to compare with and there is none. */
  applied: boolean;
  flagged: boolean;
  /** The outcome in a sentence, with the figures: "Accepted rows fell by 90% (12,000 → 1,200); at most 40% is allowed." */
  message: string;
}

export interface UnitValueMove {
  chapter: string;
  previous_median: number;
  current_median: number;
  /** current / previous. */
  factor: number;
}

export interface ComparedUpload {
  upload_id: number;
  period: string;
  file_name: string;
}

export interface UploadReview {
  computed_at: string;
  /** How long the comparison took (its SQL over the upload's rows and the compared month's figures). */
  computed_in_ms: number;
  /** The published upload compared with; null for the first upload of a country and trade direction. */
  compared_with: ComparedUpload | null;
  /** What the import decided: published at once, or held for a reviewer. */
  outcome: 'published' | 'needs_review';
  thresholds: ReviewThresholds;
  profile: UploadProfile;
  previous: UploadProfile | null;
  checks: ReviewCheck[];
  /** The keys of the checks beyond their threshold. */
  flagged: ReviewCheckKey[];
  hs_chapters: { new: string[]; missing: string[] };
  /** The chapters whose median value per unit moved most (at most 5), either way. */
  unit_values: UnitValueMove[];
}

/** One month in the chart of the review screen: the published uploads of the month, or the upload under review. */
export interface ReviewMonth {
  period: string;
  rows: number;
  /** Null when a published upload of the month was imported before values were totalled. */
  value: number | null;
  /** The upload under review (not published). */
  current: boolean;
}

/** Up to 20 rows behind a flagged check: trade records, or rejected lines for `rejected_share`. */
export interface ReviewSample {
  key: ReviewCheckKey;
  rows: Array<Record<string, unknown>>;
}

/** GET uploads/:id/review. */
export interface UploadReviewAnswer {
  upload_id: number;
  status: string;
  /** Null for an upload imported before comparisons were stored, or not imported yet. */
  review: UploadReview | null;
  /** The reviewer's decision once made. */
  decision: { by: number | null; at: string; reason: string | null } | null;
  months: ReviewMonth[];
  samples: ReviewSample[];
}
