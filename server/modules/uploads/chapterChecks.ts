// The checks by HS chapter: chapters new or missing, and the value per unit that moved most.
import type { ReviewCheck, ReviewThresholds, UnitValueMove, UploadProfile } from '../../../contract/uploadReview.ts';
import { CHECK_LABELS as LABELS, amount, limit, percent, ratio } from './reviewFigures.ts';

interface ChapterChanges {
  added: string[];
  missing: string[];
  /** The larger of: the new chapters' share of this month's rows, the missing chapters' share of the month compared with. */
  measured: number;
}

export function chapterChanges(profile: UploadProfile, previous: UploadProfile | null): ChapterChanges {
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

export function chapterCheck(chapters: ChapterChanges, threshold: number, applied: boolean): ReviewCheck {
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

export function unitValueMoves(
  profile: UploadProfile,
  previous: UploadProfile | null,
  minRows: number,
): UnitValueMove[] {
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

export function unitValueCheck(moves: UnitValueMove[], thresholds: ReviewThresholds, applied: boolean): ReviewCheck {
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

function factorText(factor: number): string {
  return factor >= 1 ? `${factor.toFixed(1)} times` : `1/${(1 / factor).toFixed(1)}`;
}
