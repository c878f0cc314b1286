import { ColumnHeadings } from '../../shared/ColumnHeadings.tsx';
import { formatDate, formatMoney } from '../../shared/formatValue.ts';
import type { Payment } from './useSubscriberDetails.ts';

const KIND_LABELS: Record<Payment['kind'], string> = { subscription: 'Subscription', top_up: 'Top-up' };

/** The money a subscriber paid, newest first. */
export function PaymentsTable({ payments }: { payments: Payment[] }) {
  return (
    <div className="table-region" role="region" aria-label="Payments table" tabIndex={0}>
      <table className="data-table money-table">
        <ColumnHeadings names={['Date', 'Kind', 'For', 'Amount', 'Reference']} />
        <tbody>
          {payments.map((payment) => (
            <tr key={payment.id}>
              <td>{formatDate(payment.received_at, true)}</td>
              <td>{KIND_LABELS[payment.kind]}</td>
              <td>{payment.note ?? '—'}</td>
              <td className="money-table__amount">{formatMoney(payment.amount)}</td>
              <td>{payment.reference ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
