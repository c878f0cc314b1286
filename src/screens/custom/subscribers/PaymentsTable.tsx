import { formatDate, formatMoney } from '../../shared/formatValue.ts';
import { RowsTable, type RowsTableColumn } from '../../shared/RowsTable.tsx';
import type { Payment } from './useSubscriberDetails.ts';

const KIND_LABELS: Record<Payment['kind'], string> = { subscription: 'Subscription', top_up: 'Top-up' };

const COLUMNS: RowsTableColumn<Payment>[] = [
  { heading: 'Date', cell: (payment) => formatDate(payment.received_at, true) },
  { heading: 'Kind', cell: (payment) => KIND_LABELS[payment.kind] },
  { heading: 'For', cell: (payment) => payment.note ?? '—' },
  { heading: 'Amount', cell: (payment) => formatMoney(payment.amount), className: 'money-table__amount' },
  { heading: 'Reference', cell: (payment) => payment.reference ?? '—' },
];

/** The money a subscriber paid, newest first. */
export function PaymentsTable({ payments }: { payments: Payment[] }) {
  return <RowsTable label="Payments table" rows={payments} columns={COLUMNS} className="data-table money-table" />;
}
