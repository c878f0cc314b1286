import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { ReviewThresholds } from '../../../../contract/uploadReview.ts';
import { http } from '../../../http/http.ts';
import { useCanAccess } from '../../../permissions/index.ts';
import { toastSuccess } from '../../../shell/index.ts';
import { Dialog } from '../../shared/Dialog.tsx';
import { DialogFormActions } from '../../shared/DialogFormActions.tsx';

type Limit = Exclude<keyof ReviewThresholds, 'hold'>;

/** Each limit in words, and how it is typed: a percentage (stored as a fraction), a factor, or a count. */
const LIMITS: readonly { name: Limit; label: string; kind: 'percent' | 'factor' | 'count' }[] = [
  { name: 'row_count_change', label: 'Accepted rows may change by at most', kind: 'percent' },
  { name: 'value_change', label: 'Total value may change by at most', kind: 'percent' },
  { name: 'quantity_change', label: 'Total quantity may change by at most', kind: 'percent' },
  { name: 'rejected_share', label: 'Rows rejected, at most', kind: 'percent' },
  { name: 'outside_period_share', label: 'Shipments dated outside the month, at most', kind: 'percent' },
  { name: 'duplicate_share', label: 'Shipments repeated within the file, at most', kind: 'percent' },
  { name: 'hs_chapter_share', label: 'Rows of HS chapters new or missing, at most', kind: 'percent' },
  { name: 'empty_party_change', label: 'Rise of rows without importer or exporter, at most (points)', kind: 'percent' },
  {
    name: 'unit_value_factor',
    label: 'Median value per unit of a chapter may move by a factor of at most',
    kind: 'factor',
  },
  { name: 'unit_value_min_rows', label: 'Chapters compared by value per unit need at least (rows)', kind: 'count' },
];

const SETTINGS = 'uploads/review-settings';
const shown = (kind: 'percent' | 'factor' | 'count', value: number) =>
  String(kind === 'percent' ? Math.round(value * 10000) / 100 : value);
const stored = (kind: 'percent' | 'factor' | 'count', text: string) =>
  kind === 'percent' ? Number(text) / 100 : Number(text);

/** "Change the limits of the checks" and its dialog, for a user with the uploads' `verify`; nothing for anyone else. */
export function ChangeLimits() {
  const mayVerify = useCanAccess('DATA_UPLOAD_LOGS', 'verify').allowed;
  const [open, setOpen] = useState(false);
  if (!mayVerify) return null;
  return (
    <>
      <button type="button" className="link-button" onClick={() => setOpen(true)}>
        Change the limits of the checks
      </button>
      {open && <ReviewThresholdsDialog onClose={() => setOpen(false)} />}
    </>
  );
}

/** The limits beyond which an import waits for a reviewer, each with its default, changed by a user with `verify`. */
function ReviewThresholdsDialog({ onClose }: { onClose: () => void }) {
  const settings = useQuery({
    queryKey: ['resource', 'uploads', 'review-settings'],
    queryFn: ({ signal }) =>
      http
        .get<{ data: { thresholds: ReviewThresholds; defaults: ReviewThresholds } }>(SETTINGS, { signal })
        .then((body) => body.data),
  });
  return (
    <Dialog title="Limits of the checks before publishing" onClose={onClose}>
      {settings.data ? (
        <ThresholdsForm {...settings.data} onClose={onClose} />
      ) : (
        <p role="status">Loading the limits…</p>
      )}
    </Dialog>
  );
}

function ThresholdsForm({
  thresholds,
  defaults,
  onClose,
}: {
  thresholds: ReviewThresholds;
  defaults: ReviewThresholds;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const formId = useId();
  const [hold, setHold] = useState(thresholds.hold);
  const [values, setValues] = useState(
    () =>
      Object.fromEntries(LIMITS.map(({ name, kind }) => [name, shown(kind, thresholds[name])])) as Record<
        Limit,
        string
      >,
  );
  const [busy, setBusy] = useState(false);
  const invalid = LIMITS.filter(
    ({ name }) => values[name].trim() === '' || !Number.isFinite(Number(values[name])) || Number(values[name]) < 0,
  ).map(({ name }) => name);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (invalid.length > 0) return;
    setBusy(true);
    try {
      const body = Object.fromEntries([
        ['hold', hold],
        ...LIMITS.map(({ name, kind }) => [name, stored(kind, values[name])]),
      ]) as ReviewThresholds;
      const answer = await http.put<{ message?: string }>(SETTINGS, body);
      toastSuccess(answer.message ?? 'The limits are saved: they apply to imports that end from now on.');
      await queryClient.invalidateQueries({ queryKey: ['resource', 'uploads', 'review-settings'] });
      onClose();
    } catch {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="review-thresholds">
      <p>An import beyond any of these limits waits for a reviewer; they apply to imports that end from now on.</p>
      <label className="review-thresholds__hold">
        <input type="checkbox" checked={hold} onChange={(event) => setHold(event.target.checked)} /> Hold imports beyond
        a limit for review (unticked: every import is published at once, its checks still kept)
      </label>
      {LIMITS.map(({ name, label, kind }) => {
        const id = `${formId}-${name}`;
        const wrong = invalid.includes(name);
        return (
          <div key={name} className="review-thresholds__limit">
            <label htmlFor={id}>{label}</label>
            <span className="review-thresholds__value">
              {kind === 'factor' && <span aria-hidden="true">×</span>}
              <input
                id={id}
                inputMode="decimal"
                value={values[name]}
                onChange={(event) => setValues({ ...values, [name]: event.target.value })}
                aria-invalid={wrong || undefined}
                aria-describedby={`${id}-default`}
                size={6}
              />
              {kind === 'percent' && <span aria-hidden="true">%</span>}
            </span>
            <small id={`${id}-default`}>
              {wrong ? 'A number of 0 or more. ' : ''}Default {kind === 'factor' ? '×' : ''}
              {shown(kind, defaults[name])}
              {kind === 'percent' ? '%' : ''}
            </small>
          </div>
        );
      })}
      <DialogFormActions disabled={busy || invalid.length > 0} onCancel={onClose}>
        Save the limits
      </DialogFormActions>
    </form>
  );
}
