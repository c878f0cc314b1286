// An upload's figures against the last published month's (contract/uploadReview.ts): each check measured, held
// against its threshold and said in a sentence. Pure: the figures are computed in SQL (uploadProfile.ts).
import type {
  ComparedUpload,
  ReviewCheck,
  ReviewCheckKey,
  ReviewThresholds,
  UnitValueMove,
  UploadProfile,
  UploadReview,
} from '../../../contract/uploadReview.ts';

const LABELS: Record<ReviewCheckKey, string> = {
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

function change(
  key: ReviewCheckKey,
  current: number,
  previous: number | undefined,
  threshold: number,
  format: (value: number) => string,
): ReviewCheck {
  const base = { key, label: LABELS[key], threshold, current };
  if (previous === undefined)
    return {
      ...base,
      measured: null,
      previous: null,
      applied: false,
      flagged: false,
      message: 'No published month to compare with.',
    };
  if (previous === 0)
    return {
      ...base,
      measured: null,
      previous,
      applied: false,
      flagged: false,
      message: `The month compared with has none (${format(current)} now).`,
    };
  const measured = current / previous - 1;
  const flagged = Math.abs(measured) > threshold;
  const moved = measured >= 0 ? 'rose' : 'fell';
  return {
    ...base,
    measured,
    previous,
    applied: true,
    flagged,
    message: `${LABELS[key]} ${moved} by ${percent(Math.abs(measured))} (${format(previous)} → ${format(current)}); ${limit(threshold, flagged)}.`,
  };
}

function share(
  key: ReviewCheckKey,
  part: number,
  whole: number,
  previous: number | null,
  threshold: number,
  what: string,
): ReviewCheck {
  const measured = ratio(part, whole);
  const flagged = measured > threshold;
  return {
    key,
    label: LABELS[key],
    measured,
    threshold,
    current: measured,
    previous,
    applied: true,
    flagged,
    message: `${percent(measured)} ${what} (${count(part)} of ${count(whole)}); ${limit(threshold, flagged)}.`,
  };
}

function partyChange(
  key: ReviewCheckKey,
  empty: number,
  rows: number,
  previous: number | null,
  threshold: number,
): ReviewCheck {
  const current = ratio(empty, rows);
  const base = { key, label: LABELS[key], threshold, current, previous };
  if (previous === null)
    return {
      ...base,
      measured: null,
      applied: false,
      flagged: false,
      message: `${percent(current)} of the rows have none; no published month to compare with.`,
    };
  const measured = current - previous;
  const flagged = measured > threshold;
  return {
    ...base,
    measured,
    applied: true,
    flagged,
    message: `${percent(current)} of the rows have none, ${percent(previous)} before (${points(measured)}); ${flagged ? 'more than' : 'within'} the rise of ${points(threshold)} allowed.`,
  };
}

interface ChapterChanges {
  added: string[];
  missing: string[];
  /** The larger of: the new chapters' share of this month's rows, the missing chapters' share of the month compared with. */
  measured: number;
}

function chapterChanges(profile: UploadProfile, previous: UploadProfile | null): ChapterChanges {
  if (!previous) return { added: [], missing: [], measured: 0 };
  const added = Object.keys(profile.chapters).filter((chapter) => !previous.chapters[chapter]);
  const missing = Object.keys(previous.chapters).filter((chapter) => !profile.chapters[chapter]);
  const rowsOf = (chapters: string[], of: UploadProfile) =>
    chapters.reduce((total, chapter) => total + (of.chapters[chapter]?.rows ?? 0), 0);
  return {
    added,
    missing,
    measured: Math.max(
      ratio(rowsOf(added, profile), profile.rows_accepted),
      ratio(rowsOf(missing, previous), previous.rows_accepted),
    ),
  };
}

function chapterCheck(chapters: ChapterChanges, threshold: number, applied: boolean): ReviewCheck {
  const base = {
    key: 'hs_chapters_changed' as const,
    label: LABELS.hs_chapters_changed,
    threshold,
    current: chapters.added.length,
    previous: chapters.missing.length,
  };
  if (!applied)
    return {
      ...base,
      current: null,
      previous: null,
      measured: null,
      applied,
      flagged: false,
      message: 'No published month to compare with.',
    };
  const flagged = chapters.measured > threshold;
  const named = (chapters_: string[]) =>
    chapters_.length
      ? chapters_.slice(0, 10).join(', ') + (chapters_.length > 10 ? ` and ${chapters_.length - 10} more` : '')
      : 'none';
  return {
    ...base,
    measured: chapters.measured,
    applied,
    flagged,
    message: `New: ${named(chapters.added)}; missing: ${named(chapters.missing)}. They hold ${percent(chapters.measured)} of the rows; ${limit(threshold, flagged)}.`,
  };
}

function unitValueMoves(profile: UploadProfile, previous: UploadProfile | null, minRows: number): UnitValueMove[] {
  if (!previous) return [];
  const moves: UnitValueMove[] = [];
  for (const [chapter, now] of Object.entries(profile.chapters)) {
    const before = previous.chapters[chapter];
    if (!before || now.rows < minRows || before.rows < minRows || !now.unit_value_median || !before.unit_value_median)
      continue;
    moves.push({
      chapter,
      previous_median: before.unit_value_median,
      current_median: now.unit_value_median,
      factor: now.unit_value_median / before.unit_value_median,
    });
  }
  return moves.sort((a, b) => spread(b.factor) - spread(a.factor));
}

function unitValueCheck(moves: UnitValueMove[], thresholds: ReviewThresholds, applied: boolean): ReviewCheck {
  const threshold = thresholds.unit_value_factor;
  const base = {
    key: 'unit_value_change' as const,
    label: LABELS.unit_value_change,
    threshold,
    current: null,
    previous: null,
  };
  if (!applied)
    return { ...base, measured: null, applied, flagged: false, message: 'No published month to compare with.' };
  const top = moves[0];
  if (!top)
    return {
      ...base,
      measured: null,
      applied,
      flagged: false,
      message: `No HS chapter has ${thresholds.unit_value_min_rows} rows with a quantity in both months.`,
    };
  const measured = spread(top.factor);
  const flagged = measured > threshold;
  const moved = moves.filter((move) => spread(move.factor) > threshold).map((move) => move.chapter);
  return {
    ...base,
    measured,
    applied,
    flagged,
    message: `Chapter ${top.chapter} moved most: median ${amount(top.previous_median)} → ${amount(top.current_median)} per unit (${factorText(top.factor)})${moved.length > 1 ? `; beyond the threshold: ${moved.join(', ')}` : ''}; ${flagged ? 'more than' : 'within'} a factor of ${threshold}.`,
  };
}

/** How far a factor is from 1, either way: 3 for three times higher and for a third. */
function spread(factor: number): number {
  return factor >= 1 ? factor : 1 / factor;
}

function ratio(part: number, whole: number): number {
  return whole > 0 ? part / whole : 0;
}

function limit(threshold: number, flagged: boolean): string {
  return `${flagged ? 'more than' : 'within'} the ${percent(threshold)} allowed`;
}

function percent(fraction: number): string {
  const value = fraction * 100;
  return `${value >= 10 || value === 0 ? Math.round(value) : value.toFixed(1)}%`;
}

function points(fraction: number): string {
  return `${fraction >= 0 ? '+' : '−'}${Math.round(Math.abs(fraction) * 100)} points`;
}

function count(value: number): string {
  return Math.round(value).toLocaleString('en');
}

function amount(value: number): string {
  return value.toLocaleString('en', { maximumFractionDigits: 2 });
}

function factorText(factor: number): string {
  return factor >= 1 ? `${factor.toFixed(1)} times` : `1/${(1 / factor).toFixed(1)}`;
}
