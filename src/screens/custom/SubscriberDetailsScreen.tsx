import { readableFields } from '../../../contract/readableFields.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { ResourceDescription } from '../../generated/types.ts';
import { useCanAccess } from '../../permissions/index.ts';
import { http } from '../../http/index.ts';
import type { ScreenProps } from '../ScreenProps.ts';
import { formatDate, formatValue, type Row } from '../shared/formatValue.ts';
import { HistorySection } from '../history/HistorySection.tsx';
import { humanize } from '../shared/humanize.ts';
import { QueryState } from '../shared/QueryState.tsx';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import { AddSubscriptionDialog } from './subscribers/AddSubscriptionDialog.tsx';
import { AddTopUpDialog } from './subscribers/AddTopUpDialog.tsx';
import '../screens.css';
import './custom.css';
import { ColumnHeadings } from '../shared/ColumnHeadings.tsx';
import { RecordFields } from '../shared/RecordFields.tsx';

/** The subscriber's latest subscription; `plan_label` is the plan's name (null when the plan no longer exists). */
interface Subscription extends Row {
  plan_id: number;
  plan_label: string | null;
  ends_on: string | null;
  /** Not ended yet (no end, or an end today or later). */
  is_current: boolean;
}

interface Summary {
  subscriber: Row;
  subscription: Subscription | null;
  points_balance: number;
}

interface LedgerEntry {
  id: number;
  kind: string;
  points: number;
  balance_after: number;
  note: string | null;
  created_at: string;
}

/** One subscriber: profile, current subscription, points balance and ledger, and the subscription and top-up flows. */
export default function SubscriberDetailsScreen({ resource }: ScreenProps) {
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const canAddSubscription = useCanAccess(resource.module, 'ADD_SUBSCRIPTION').allowed && resource.actions.includes('ADD_SUBSCRIPTION');
  const canTopUp = useCanAccess(resource.module, 'ADD_TOP_UP').allowed && resource.actions.includes('ADD_TOP_UP');
  const [dialog, setDialog] = useState<'subscription' | 'top-up' | null>(null);
  const base = `${resource.api}/${id}`;
  const summary = useQuery({
    queryKey: ['resource', resource.api, 'summary', id],
    queryFn: ({ signal }) => http.get<{ data: Summary }>(`${base}/summary`, { signal }).then((body) => body.data),
  });
  const ledger = useQuery({
    queryKey: ['resource', resource.api, 'ledger', id],
    queryFn: ({ signal }) => http.get<{ data: LedgerEntry[] }>(`${base}/ledger`, { signal }).then((body) => body.data),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['resource', resource.api] });
  const close = (changed: boolean) => {
    setDialog(null);
    if (changed) refresh();
  };

  return (
    <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
      <ScreenHeading
        actions={
          <>
            {canAddSubscription && (
              <button type="button" className="button button--primary" onClick={() => setDialog('subscription')}>
                Add subscription
              </button>
            )}
            {canTopUp && (
              <button type="button" className="button" onClick={() => setDialog('top-up')}>
                Add top-up
              </button>
            )}
            {resource.routes.view && (
              <Link className="button" to={resource.routes.view}>
                Back to subscribers
              </Link>
            )}
          </>
        }
      >
        {summary.data ? `Subscriber ${String(summary.data.subscriber.name ?? id)}` : 'Subscriber'}
      </ScreenHeading>
      <QueryState isPending={summary.isPending} isError={summary.isError} what="the subscriber" onRetry={() => summary.refetch()}>
        {summary.data && <SummaryPanels resource={resource} summary={summary.data} />}
      </QueryState>
      <section className="panel" aria-labelledby="ledger-title">
        <h2 id="ledger-title">Points ledger</h2>
        <QueryState isPending={ledger.isPending} isError={ledger.isError} what="the points ledger" onRetry={() => ledger.refetch()}>
          {ledger.data && ledger.data.length === 0 ? <p>No points movements yet.</p> : <LedgerTable entries={ledger.data ?? []} />}
        </QueryState>
      </section>
      {summary.data && <HistorySection resource={resource} recordId={id} version={Number(summary.data.subscriber.version)} />}
      {dialog === 'subscription' && <AddSubscriptionDialog resource={resource} subscriberId={id} onClose={close} />}
      {dialog === 'top-up' && <AddTopUpDialog resource={resource} subscriberId={id} onClose={close} />}
    </section>
  );
}

function SummaryPanels({ resource, summary }: { resource: ResourceDescription; summary: Summary }) {
  const fields = readableFields(resource.entity?.fields ?? []).filter((field) => field.name !== 'id');
  const latest = summary.subscription;
  const planName = latest && (latest.plan_label ?? `Plan #${latest.plan_id}`);
  return (
    <>
      <dl className="stat-grid">
        <div className="stat">
          <dt>Points balance</dt>
          <dd>{formatValue(undefined, { points_balance: summary.points_balance }, 'points_balance')}</dd>
        </div>
        <div className="stat">
          <dt>Current plan</dt>
          <dd>{latest?.is_current ? planName : 'None'}</dd>
        </div>
        {latest?.is_current ? (
          <div className="stat">
            <dt>Valid until</dt>
            <dd>{latest.ends_on ? formatDate(latest.ends_on, false) : 'No end date'}</dd>
          </div>
        ) : (
          <div className="stat">
            <dt>Last plan</dt>
            <dd>{latest ? `${planName}, ended ${formatDate(latest.ends_on, false)}` : '—'}</dd>
          </div>
        )}
      </dl>
      <section className="panel" aria-labelledby="profile-title">
        <h2 id="profile-title">Profile</h2>
        <RecordFields fields={fields} record={summary.subscriber} />
      </section>
    </>
  );
}

function LedgerTable({ entries }: { entries: LedgerEntry[] }) {
  return (
    <table className="data-table">
      <ColumnHeadings names={['Date', 'Kind', 'Points', 'Balance after', 'Note']} />
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.id}>
            <td>{formatDate(entry.created_at, true)}</td>
            <td>{humanize(entry.kind)}</td>
            <td>{entry.points > 0 ? `+${entry.points}` : entry.points}</td>
            <td>{entry.balance_after}</td>
            <td>{entry.note ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
