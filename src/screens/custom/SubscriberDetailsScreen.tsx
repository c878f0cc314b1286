import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useCanAccess } from '../../permissions/index.ts';
import { ErrorPage } from '../../shell/index.ts';
import type { ScreenProps } from '../ScreenProps.ts';
import { HistorySection } from '../history/HistorySection.tsx';
import { QueryState } from '../shared/QueryState.tsx';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import { AddSubscriptionDialog } from './subscribers/AddSubscriptionDialog.tsx';
import { AddTopUpDialog } from './subscribers/AddTopUpDialog.tsx';
import { PaymentsTable } from './subscribers/PaymentsTable.tsx';
import { PointsLedgerTable } from './subscribers/PointsLedgerTable.tsx';
import { SubscriberSummaryPanels } from './subscribers/SubscriberSummaryPanels.tsx';
import { SubscriptionsTable } from './subscribers/SubscriptionsTable.tsx';
import { useSubscriberDetails } from './subscribers/useSubscriberDetails.ts';
import '../screens.css';
import './custom.css';
import './subscribers/subscribers.css';

/**
 * One subscriber: where they stand, their subscriptions, payments and points ledger, and the subscription and top-up
 * flows. After any change every part reloads together, so no part tells an older story than another.
 */
export default function SubscriberDetailsScreen({ resource }: ScreenProps) {
  const { id = '' } = useParams();
  const roleMaySell =
    useCanAccess(resource.module, 'ADD_SUBSCRIPTION').allowed && resource.actions.includes('ADD_SUBSCRIPTION');
  const roleMayTopUp = useCanAccess(resource.module, 'ADD_TOP_UP').allowed && resource.actions.includes('ADD_TOP_UP');
  const [dialog, setDialog] = useState<'subscription' | 'top-up' | null>(null);
  const { summary, subscriptions, payments, ledger, refused, refresh } = useSubscriberDetails(resource, id);
  // A control is offered once the server said its route would accept it for this subscriber (role and scope).
  const can = summary.data?.can;
  const canAddSubscription = roleMaySell && can?.add_subscription === true;
  const canCancel = roleMaySell && can?.cancel_subscription === true;
  const canTopUp = roleMayTopUp && can?.add_top_up === true;
  const close = (changed: boolean) => {
    setDialog(null);
    if (changed) refresh();
  };
  if (refused) return <ErrorPage status={refused} />;

  return (
    <section className="screen subscriber-details" aria-labelledby={SCREEN_TITLE_ID}>
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
      <QueryState query={summary} what="the subscriber">
        {summary.data && <SubscriberSummaryPanels resource={resource} summary={summary.data} />}
      </QueryState>
      {/* Read once the summary answered: when it failed, it says so for the page. */}
      {!summary.isError && (
        <>
          <Panel
            id="subscriptions-title"
            title="Subscriptions"
            query={subscriptions}
            what="the subscriptions"
            empty="No subscriptions yet."
          >
            {(rows) => (
              <SubscriptionsTable
                subscriptions={rows}
                subscriberPath={`${resource.api}/${id}`}
                canCancel={canCancel}
                onCancelled={refresh}
              />
            )}
          </Panel>
          <Panel id="payments-title" title="Payments" query={payments} what="the payments" empty="No payments yet.">
            {(rows) => <PaymentsTable payments={rows} />}
          </Panel>
          <Panel
            id="ledger-title"
            title="Points ledger"
            query={ledger}
            what="the points ledger"
            empty="No points movements yet."
          >
            {(rows) => <PointsLedgerTable entries={rows} />}
          </Panel>
        </>
      )}
      {summary.data && (
        <HistorySection resource={resource} recordId={id} version={Number(summary.data.subscriber.version)} />
      )}
      {dialog === 'subscription' && <AddSubscriptionDialog resource={resource} subscriberId={id} onClose={close} />}
      {dialog === 'top-up' && <AddTopUpDialog resource={resource} subscriberId={id} onClose={close} />}
    </section>
  );
}

interface PanelProps<T> {
  id: string;
  title: string;
  query: { data: T[] | undefined; isPending: boolean; isError: boolean; refetch: () => unknown };
  what: string;
  empty: string;
  children: (rows: T[]) => ReactNode;
}

/** A titled panel of rows, with loading, error and "none yet" states. */
function Panel<T>({ id, title, query, what, empty, children }: PanelProps<T>) {
  return (
    <section className="panel subscriber-details__panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <QueryState query={query} what={what}>
        {query.data && (query.data.length === 0 ? <p>{empty}</p> : children(query.data))}
      </QueryState>
    </section>
  );
}
