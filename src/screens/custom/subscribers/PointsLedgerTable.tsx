import { ColumnHeadings } from '../../shared/ColumnHeadings.tsx';
import { formatDate, formatValue } from '../../shared/formatValue.ts';
import { humanize } from '../../shared/humanize.ts';
import type { LedgerEntry } from './useSubscriberDetails.ts';

/** A subscriber's points movements, newest first, with the balance after each. */
export function PointsLedgerTable({ entries }: { entries: LedgerEntry[] }) {
  return (
    <div className="table-region" role="region" aria-label="Ledger table" tabIndex={0}>
      <table className="data-table">
        <ColumnHeadings names={['Date', 'Kind', 'Points', 'Balance after', 'Note']} />
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>{formatDate(entry.created_at, true)}</td>
              <td>{humanize(entry.kind)}</td>
              <td>{`${entry.points > 0 ? '+' : ''}${formatValue(undefined, { points: entry.points }, 'points')}`}</td>
              <td>{formatValue(undefined, { balance_after: entry.balance_after }, 'balance_after')}</td>
              <td>{entry.note ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
