// An upload's figures against the last published month's (contract/uploadReview.ts): each check measured, held
// against its threshold and said in a sentence. Pure: the figures are computed in SQL (uploadProfile.ts).
import type {
  ComparedUpload,
  ReviewCheck,
  ReviewThresholds,
  UploadProfile,
  UploadReview,
} from '../../../contract/uploadReview.ts';
import { amount, count, ratio } from './reviewFigures.ts';
import { change, partyChange, share } from './figureChecks.ts';
import { chapterChanges, chapterCheck, unitValueCheck, unitValueMoves } from './chapterChecks.ts';

const MOVES_SHOWN = 5;

export function compareProfiles(
  profile: UploadProfile,
  previous: UploadProfile | null,
  thresholds: ReviewThresholds,
  comparedWith: ComparedUpload | null,
): UploadReview {
  const chapters = chapterChanges(profile, previous);
  const unitValues = unitValueMoves(profile, previous, thresholds.unit_value_min_rows);
  const checks: ReviewCheck[] = [
    change('row_count_change', profile.rows_accepted, previous?.rows_accepted, thresholds.row_count_change, count),
    change('value_change', profile.value, previous?.value, thresholds.value_change, amount),
    change('quantity_change', profile.quantity, previous?.quantity, thresholds.quantity_change, amount),
    share(
      'rejected_share',
      profile.rows_rejected,
      profile.rows_total,
      previous ? ratio(previous.rows_rejected, previous.rows_total) : null,
      thresholds.rejected_share,
      'of the rows read',
    ),
    share(
      'outside_period_share',
      profile.outside_period,
      profile.rows_accepted,
      previous ? ratio(previous.outside_period, previous.rows_accepted) : null,
      thresholds.outside_period_share,
      `of the accepted rows are not dated in ${profile.period}`,
    ),
    share(
      'duplicate_share',
      profile.duplicates,
      profile.rows_accepted,
      previous ? ratio(previous.duplicates, previous.rows_accepted) : null,
      thresholds.duplicate_share,
      'of the accepted rows repeat an earlier row of the file',
    ),
    chapterCheck(chapters, thresholds.hs_chapter_share, previous !== null),
    partyChange(
      'empty_importer_change',
      profile.empty_importer,
      profile.rows_accepted,
      previous && ratio(previous.empty_importer, previous.rows_accepted),
      thresholds.empty_party_change,
    ),
    partyChange(
      'empty_exporter_change',
      profile.empty_exporter,
      profile.rows_accepted,
      previous && ratio(previous.empty_exporter, previous.rows_accepted),
      thresholds.empty_party_change,
    ),
    unitValueCheck(unitValues, thresholds, previous !== null),
  ];
  const flagged = checks.filter((check) => check.flagged).map((check) => check.key);
  return {
    computed_at: new Date().toISOString(),
    computed_in_ms: 0,
    compared_with: comparedWith,
    outcome: thresholds.hold && flagged.length ? 'needs_review' : 'published',
    thresholds,
    profile,
    previous,
    checks,
    flagged,
    hs_chapters: { new: chapters.added, missing: chapters.missing },
    unit_values: unitValues.slice(0, MOVES_SHOWN),
  };
}
