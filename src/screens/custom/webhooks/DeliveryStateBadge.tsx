import type { WebhookDeliveryState } from '../../../../contract/webhooks.ts';

const STATE_LABELS: Record<WebhookDeliveryState, string> = {
  pending: 'Pending',
  sending: 'Sending',
  delivered: 'Delivered',
  failed: 'Failed',
};

/** A delivery's state in words, coloured for delivered and failed (the words alone say it too). */
export function DeliveryStateBadge({ state }: { state: WebhookDeliveryState }) {
  return <span className={`status-badge webhook-state webhook-state--${state}`}>{STATE_LABELS[state]}</span>;
}
