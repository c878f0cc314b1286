import type { WebhookDeliveryAnswer } from '../../../../contract/webhooks.ts';
import { DetailItem } from '../../shared/DetailItem.tsx';
import { InfoDialog } from '../../shared/InfoDialog.tsx';
import { formatDate } from '../../shared/formatValue.ts';
import { DeliveryStateBadge } from './DeliveryStateBadge.tsx';

export interface DeliveryDetailsDialogProps {
  delivery: WebhookDeliveryAnswer;
  onClose: () => void;
}

/** The body as sent, indented when it is JSON (it always should be), else as it is. */
function readableBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** One delivery in full: what was sent, every time and attempt, and what the receiver answered or why it failed. */
export function DeliveryDetailsDialog({ delivery, onClose }: DeliveryDetailsDialogProps) {
  const at = (time: string | null) => (time ? formatDate(time, true) : null);
  // Each fact that applies to this delivery, in the order a delivery lives them.
  const facts: { term: string; value: string | null }[] = [
    { term: 'Event ID', value: delivery.event_id },
    { term: 'Attempts', value: String(delivery.attempts) },
    { term: 'Queued', value: at(delivery.created_at) },
    { term: 'Last attempt', value: at(delivery.last_attempt_at) ?? 'None yet' },
    { term: 'Next attempt', value: at(delivery.next_attempt_at) },
    { term: 'Delivered', value: at(delivery.delivered_at) },
    { term: 'Took', value: delivery.duration_ms === null ? null : `${delivery.duration_ms} ms` },
    { term: 'Sends again', value: delivery.replay_of === null ? null : `Delivery #${delivery.replay_of}` },
  ];
  return (
    <InfoDialog
      title={`Delivery #${delivery.id}: ${delivery.event}`}
      closeLabel="Close"
      bodyClassName="delivery-details"
      onClose={onClose}
    >
      <p>
        <DeliveryStateBadge state={delivery.state} />
      </p>
      <dl className="detail-list">
        {facts.map(({ term, value }) =>
          value === null ? null : (
            <DetailItem key={term} term={term}>
              {value}
            </DetailItem>
          ),
        )}
      </dl>
      <h3>The receiver&apos;s answer</h3>
      {delivery.response_status === null ? (
        <p>No answer{delivery.error ? '' : ' yet'}.</p>
      ) : (
        <p>HTTP {delivery.response_status}</p>
      )}
      {delivery.error && <p className="delivery-details__error">{delivery.error}</p>}
      {delivery.response_body && (
        <pre className="delivery-details__code" tabIndex={0} role="region" aria-label="The receiver's answer">
          {delivery.response_body}
        </pre>
      )}
      <h3>The body sent</h3>
      <pre className="delivery-details__code" tabIndex={0} role="region" aria-label="The body sent">
        {readableBody(delivery.body)}
      </pre>
    </InfoDialog>
  );
}
