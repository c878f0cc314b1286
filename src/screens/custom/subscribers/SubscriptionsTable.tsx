import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { http } from '../../../http/index.ts';
import { toastSuccess } from '../../../shell/index.ts';
import { ColumnHeadings } from '../../shared/ColumnHeadings.tsx';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';
import { formatDate, formatMoney } from '../../shared/formatValue.ts';
import type { Subscription, SubscriptionState } from './useSubscriberDetails.ts';

const STATE_LABELS: Record<SubscriptionState, string> = {
  scheduled: 'Scheduled',
  current: 'Current',
  ended: 'Ended',
  cancelled: 'Cancelled',
};
const CANCELLABLE: readonly SubscriptionState[] = ['scheduled', 'current'];

export interface SubscriptionsTableProps {
  subscriptions: Subscription[];
  /** The subscriber's API path (`subscribers/9`). */
  subscriberPath: string;
  /** Whether the user may cancel a subscription (ADD_SUBSCRIPTION). */
  canCancel: boolean;
  onCancelled: () => void;
}

/** A subscriber's subscriptions, newest first, what each cost and how it was paid; current and scheduled ones can be cancelled. */
export function SubscriptionsTable({ subscriptions, subscriberPath, canCancel, onCancelled }: SubscriptionsTableProps) {
  const [cancelling, setCancelling] = useState<Subscription | null>(null);
  const cancel = useMutation({
    mutationFn: (subscription: Subscription) =>
      http.post<{ message?: string }>(`${subscriberPath}/subscriptions/${subscription.id}/cancel`),
    onSuccess: (body) => {
      toastSuccess(body.message ?? 'Subscription cancelled.');
      setCancelling(null);
      onCancelled();
    },
  });
  const headings = [
    'Plan',
    'Period',
    'State',
    'List price',
    'Voucher',
    'Discount',
    'Amount due',
    'Amount paid',
    'Payment reference',
  ];
  return (
    <>
      <div className="table-region" role="region" aria-label="Subscriptions table" tabIndex={0}>
        <table className="data-table money-table">
          <ColumnHeadings names={canCancel ? [...headings, 'Actions'] : headings} />
          <tbody>
            {subscriptions.map((subscription) => (
              <tr key={subscription.id}>
                <td>{planName(subscription)}</td>
                <td className="money-table__period">{period(subscription)}</td>
                <td>
                  {STATE_LABELS[subscription.state]}
                  {subscription.is_trial && (
                    <>
                      {' '}
                      <span className="status-badge">Trial</span>
                    </>
                  )}
                </td>
                <td className="money-table__amount">{formatMoney(subscription.list_price)}</td>
                <td>{subscription.voucher_code ?? '—'}</td>
                <td className="money-table__amount">{formatMoney(subscription.discount)}</td>
                <td className="money-table__amount">{formatMoney(subscription.amount_due)}</td>
                <td className="money-table__amount">{formatMoney(subscription.amount_paid)}</td>
                <td>{subscription.payment_reference ?? '—'}</td>
                {canCancel && (
                  <td className="actions-cell">
                    {CANCELLABLE.includes(subscription.state) && (
                      <button
                        type="button"
                        className="button"
                        onClick={() => setCancelling(subscription)}
                        aria-label={`Cancel ${planName(subscription)}, ${period(subscription)}`}
                      >
                        Cancel
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {cancelling && (
        <ConfirmDialog
          title="Cancel this subscription?"
          confirmLabel="Cancel subscription"
          cancelLabel="Keep it"
          destructive
          busy={cancel.isPending}
          onConfirm={() => !cancel.isPending && cancel.mutate(cancelling)}
          onCancel={() => setCancelling(null)}
        >
          <p>
            {planName(cancelling)}, {period(cancelling)}. A cancelled subscription cannot be resumed.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

function planName(subscription: Subscription): string {
  return subscription.plan_label ?? `Plan #${subscription.plan_id}`;
}

function period(subscription: Subscription): string {
  return `${formatDate(subscription.starts_on, false)} – ${subscription.ends_on ? formatDate(subscription.ends_on, false) : 'no end'}`;
}
