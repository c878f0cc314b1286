import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { ReviewCheck, ReviewMonth, ReviewSample, UploadReviewAnswer } from '../../../../contract/uploadReview.ts';
import { http } from '../../../http/http.ts';
import { ApiError } from '../../../http/ApiError.ts';
import { useCanAccess } from '../../../permissions/index.ts';
import { toastSuccess } from '../../../shell/index.ts';
import { ColumnHeadings } from '../../shared/ColumnHeadings.tsx';
import { Dialog } from '../../shared/Dialog.tsx';
import { DialogFormActions } from '../../shared/DialogFormActions.tsx';
import { formatDate, formatMonth } from '../../shared/formatValue.ts';
import { ReportChart } from '../reporting/ReportChart.tsx';
import { ChangeLimits } from './ReviewThresholdsDialog.tsx';
import './uploadReview.css';

/** Statuses an upload has a stored comparison in. */
const COMPARED = new Set(['needs_review', 'published', 'rejected']);

export interface UploadReviewPanelProps {
  api: string;
  uploadId: string;
  status: string;
}

/**
 * An imported upload against the last published month of its country and direction, for a user with `verify`: each
 * check with its figures and limit, the last 12 months' rows and value with this upload last, the rows behind each
 * check beyond its limit, and, while it waits for review, Publish and Reject with a reason.
 */
export function UploadReviewPanel({ api, uploadId, status }: UploadReviewPanelProps) {
  const mayVerify = useCanAccess('DATA_UPLOAD_LOGS', 'verify').allowed;
  const review = useQuery({
    queryKey: ['resource', api, 'review', uploadId, status],
    queryFn: ({ signal }) =>
      http
        .get<{ data: UploadReviewAnswer }>(`${api}/${uploadId}/review`, { loader: false, signal })
        .then((body) => body.data),
    enabled: mayVerify && COMPARED.has(status),
  });
  if (!mayVerify || !COMPARED.has(status) || !review.data?.review) return null;
  const { review: comparison, months, samples, decision } = review.data;
  const beyond = comparison.checks.filter((check) => check.flagged);
  return (
    <section className="panel upload-review" aria-labelledby="upload-review-title">
      <h2 id="upload-review-title">Checks before publishing</h2>
      <p>
        {comparison.compared_with
          ? `Compared with ${formatMonth(comparison.compared_with.period)}, the last published month of this country and direction (${comparison.compared_with.file_name}).`
          : 'The first month of this country and direction: nothing published to compare with, so only the checks of the file itself apply.'}{' '}
        {beyond.length === 0
          ? 'Every check is within its limit.'
          : `${beyond.length} ${beyond.length === 1 ? 'check is' : 'checks are'} beyond the limit.`}
      </p>
      <ChecksTable checks={comparison.checks} />
      <p>
        <ChangeLimits />
      </p>
      {status === 'needs_review' && <ReviewDecision api={api} uploadId={uploadId} />}
      {decision && (
        <p className="upload-review__decision">
          {status === 'rejected' ? 'Rejected' : 'Published'} on {formatDate(decision.at, true)}
          {decision.reason ? `: “${decision.reason}”` : ''}
        </p>
      )}
      <MonthsCharts months={months} />
      {samples
        .filter((sample) => sample.rows.length > 0)
        .map((sample) => (
          <SampleRows
            key={sample.key}
            sample={sample}
            label={comparison.checks.find((check) => check.key === sample.key)?.label ?? sample.key}
          />
        ))}
    </section>
  );
}

function ChecksTable({ checks }: { checks: readonly ReviewCheck[] }) {
  return (
    <div className="table-region">
      <table className="data-table upload-review__checks">
        <caption className="visually-hidden">Each check, its result, and the figures behind it</caption>
        <ColumnHeadings names={['Check', 'Result', 'What was found']} />
        <tbody>
          {checks.map((check) => (
            <tr key={check.key} className={check.flagged ? 'upload-review__flagged' : undefined}>
              <th scope="row">{check.label}</th>
              <td>
                <span className={`status-badge${check.flagged ? ' status-badge--warning' : ''}`}>
                  {!check.applied ? 'Not checked' : check.flagged ? 'Beyond the limit' : 'Within the limit'}
                </span>
              </td>
              <td>{check.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Rows and value by month, this upload last and marked: a chart for the eye and its table. */
function MonthsCharts({ months }: { months: readonly ReviewMonth[] }) {
  if (months.length === 0) return null;
  const periods = months.map((month) => month.period);
  const marked = months.find((month) => month.current)?.period;
  const count = new Intl.NumberFormat('en-IN');
  const money = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 });
  return (
    <div className="upload-review__charts">
      <ReportChart
        title="Accepted rows by month (this upload is the last)"
        data={{ months: periods, series: [{ label: 'Rows', values: months.map((month) => month.rows) }] }}
        format={(value) => count.format(value)}
        marked={marked}
      />
      <ReportChart
        title="Total value by month (this upload is the last)"
        data={{ months: periods, series: [{ label: 'Value', values: months.map((month) => month.value ?? 0) }] }}
        format={(value) => money.format(value)}
        marked={marked}
      />
      <p className="upload-review__this-month">
        This upload, marked with a dot: {formatMonth(marked ?? '')},{' '}
        {count.format(months.find((month) => month.current)?.rows ?? 0)} rows.
      </p>
    </div>
  );
}

function SampleRows({ sample, label }: { sample: ReviewSample; label: string }) {
  const columns = [...new Set(sample.rows.flatMap((row) => Object.keys(row)))];
  return (
    <details className="upload-review__sample">
      <summary>
        Rows behind “{label}” ({sample.rows.length})
      </summary>
      <div className="table-region">
        <table className="data-table">
          <ColumnHeadings names={columns} />
          <tbody>
            {sample.rows.map((row, index) => (
              <tr key={index}>
                {columns.map((column) => (
                  <td key={column}>{row[column] === null || row[column] === undefined ? '—' : String(row[column])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

/** Publish or Reject, each with the reason the upload's history keeps. */
function ReviewDecision({ api, uploadId }: { api: string; uploadId: string }) {
  const [deciding, setDeciding] = useState<'publish' | 'reject' | null>(null);
  return (
    <div className="upload-review__actions">
      <button type="button" className="button button--primary" onClick={() => setDeciding('publish')}>
        Publish
      </button>
      <button type="button" className="button button--danger" onClick={() => setDeciding('reject')}>
        Reject
      </button>
      {deciding && (
        <DecisionDialog api={api} uploadId={uploadId} decision={deciding} onClose={() => setDeciding(null)} />
      )}
    </div>
  );
}

function DecisionDialog({
  api,
  uploadId,
  decision,
  onClose,
}: {
  api: string;
  uploadId: string;
  decision: 'publish' | 'reject';
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      setError('Say why: the upload’s history keeps it.');
      return;
    }
    setBusy(true);
    try {
      const body = await http.post<{ message?: string }>(`${api}/${uploadId}/${decision}`, { reason });
      toastSuccess(body.message ?? (decision === 'publish' ? 'The upload is published.' : 'The upload is rejected.'));
      await queryClient.invalidateQueries({ queryKey: ['resource', api] });
      onClose();
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 400) setError(caught.fieldErrors.reason ?? caught.message);
      setBusy(false);
    }
  };
  const publish = decision === 'publish';
  return (
    <Dialog title={publish ? 'Publish this upload?' : 'Reject this upload?'} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <p>
          {publish
            ? 'Customers see its records in the report and exports at once.'
            : 'Its records are removed; its file and rejected lines stay until the upload is deleted.'}
        </p>
        <label htmlFor={reasonId}>Reason (kept with the upload’s history)</label>
        <textarea
          id={reasonId}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          rows={3}
          maxLength={2000}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${reasonId}-error` : undefined}
        />
        {error && (
          <p id={`${reasonId}-error`} className="field-error">
            {error}
          </p>
        )}
        <DialogFormActions disabled={busy} destructive={!publish} onCancel={onClose}>
          {publish ? 'Publish' : 'Reject'}
        </DialogFormActions>
      </form>
    </Dialog>
  );
}
