import { SUBSCRIBER_FIELDS } from '../../../../contract/modules.ts';
import { readableFields } from '../../../../contract/readableFields.ts';
import type { ResourceDescription } from '../../../generated/types.ts';
import { formatMoney, formatValue } from '../../shared/formatValue.ts';
import { RecordFields } from '../../shared/RecordFields.tsx';
import { subscriptionStanding } from './subscriptionStanding.ts';
import type { SubscriberSummary } from './useSubscriberDetails.ts';

/** The figures at the top of a subscriber's details (standing, points, money paid), then the profile. */
export function SubscriberSummaryPanels({
  resource,
  summary,
}: {
  resource: ResourceDescription;
  summary: SubscriberSummary;
}) {
  const entityFields = resource.entity?.fields ?? [];
  const statusField = entityFields.find((field) => field.name === SUBSCRIBER_FIELDS.status.field) ?? {
    enumLabels: null,
  };
  const profileFields = readableFields(entityFields).filter((field) => field.name !== 'id');
  return (
    <>
      <dl className="stat-grid">
        <div className="stat stat--standing">
          <dt>Subscription</dt>
          <dd>{subscriptionStanding(summary, statusField)}</dd>
        </div>
        <div className="stat">
          <dt>Points balance</dt>
          <dd>{formatValue(undefined, { points_balance: summary.points_balance }, 'points_balance')}</dd>
        </div>
        <div className="stat">
          <dt>Paid in total</dt>
          <dd>{formatMoney(summary.paid_total)}</dd>
        </div>
      </dl>
      <section className="panel" aria-labelledby="profile-title">
        <h2 id="profile-title">Profile</h2>
        <RecordFields fields={profileFields} record={summary.subscriber} />
      </section>
    </>
  );
}
