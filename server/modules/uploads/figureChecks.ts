// The checks of one figure of the upload against the month compared with: a change, a share, a rise of empty parties.
import type { ReviewCheck, ReviewCheckKey } from '../../../contract/uploadReview.ts';
import { CHECK_LABELS as LABELS, count, limit, percent, points, ratio } from './reviewFigures.ts';

export function change(
  key: ReviewCheckKey,
  current: number,
  previous: number | undefined,
  threshold: number,
  format: (value: number) => string,
): ReviewCheck {
  const base = { key, label: LABELS[key], threshold, current };
  if (previous === undefined) return notApplied({ ...base, previous: null }, 'No published month to compare with.');
  if (previous === 0)
    return notApplied({ ...base, previous }, `The month compared with has none (${format(current)} now).`);
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

export function share(
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

export function partyChange(
  key: ReviewCheckKey,
  empty: number,
  rows: number,
  previous: number | null,
  threshold: number,
): ReviewCheck {
  const current = ratio(empty, rows);
  const base = { key, label: LABELS[key], threshold, current, previous };
  if (previous === null)
    return notApplied(base, `${percent(current)} of the rows have none; no published month to compare with.`);
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

/** A check without a figure to compare with: nothing measured, nothing flagged; `message` says why. */
function notApplied(
  compared: Pick<ReviewCheck, 'key' | 'label' | 'threshold' | 'current' | 'previous'>,
  message: string,
): ReviewCheck {
  return { ...compared, measured: null, applied: false, flagged: false, message };
}
