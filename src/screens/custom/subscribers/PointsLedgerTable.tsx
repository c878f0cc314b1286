import { formatDate, formatValue } from '../../shared/formatValue.ts';
import { humanize } from '../../shared/humanize.ts';
import { RowsTable, type RowsTableColumn } from '../../shared/RowsTable.tsx';
import type { LedgerEntry } from './useSubscriberDetails.ts';

const COLUMNS: RowsTableColumn<LedgerEntry>[] = [
  { heading: 'Date', cell: (entry) => formatDate(entry.created_at, true) },
  { heading: 'Kind', cell: (entry) => humanize(entry.kind) },
  {
    heading: 'Points',
    cell: (entry) => `${entry.points > 0 ? '+' : ''}${formatValue(undefined, { points: entry.points }, 'points')}`,
  },
  {
    heading: 'Balance after',
    cell: (entry) => formatValue(undefined, { balance_after: entry.balance_after }, 'balance_after'),
  },
  { heading: 'Note', cell: (entry) => entry.note ?? '—' },
];

/** A subscriber's points movements, newest first, with the balance after each. */
export function PointsLedgerTable({ entries }: { entries: LedgerEntry[] }) {
  return <RowsTable label="Ledger table" rows={entries} columns={COLUMNS} />;
}
