import { Link } from 'react-router-dom';
import type { WebhookAnswer } from '../../../../contract/webhooks.ts';
import type { ResourceDescription } from '../../../generated/types.ts';
import { DetailItem } from '../../shared/DetailItem.tsx';
import { formatDate } from '../../shared/formatValue.ts';
import { QueryState } from '../../shared/QueryState.tsx';
import { ScreenHeading } from '../../shared/ScreenHeading.tsx';
import { useResourceAccess } from '../../shared/useResourceAccess.ts';
import { DeliveryLog } from './DeliveryLog.tsx';
import { WebhookActions } from './WebhookActions.tsx';
import { eventsParts } from './webhookEvents.ts';
import { isMissingWebhook, useWebhook, useWebhookEvents } from './webhookQueries.ts';

export interface WebhookDetailProps {
  resource: ResourceDescription;
  id: number;
  /** The webhooks' list, where Back (and a deletion) leads. */
  listPath: string;
}

/** One webhook: its settings, what may be done to it, and its delivery log. */
export function WebhookDetail({ resource, id, listPath }: WebhookDetailProps) {
  const access = useResourceAccess(resource);
  const webhook = useWebhook(resource.api, id);
  const back = (
    <Link className="button" to={listPath}>
      Back to webhooks
    </Link>
  );
  if (isMissingWebhook(webhook.error)) {
    return (
      <>
        <ScreenHeading actions={back}>No such webhook</ScreenHeading>
        <p role="status">There is no webhook #{id}: it may have been deleted.</p>
      </>
    );
  }
  return (
    <>
      <ScreenHeading
        actions={
          <>
            {webhook.data && (
              <WebhookActions api={resource.api} webhook={webhook.data} access={access} listPath={listPath} />
            )}
            {back}
          </>
        }
      >
        {webhook.data ? `Webhook "${webhook.data.name}"` : 'Webhook'}
      </ScreenHeading>
      <QueryState query={webhook} what="the webhook" keepsLoadedData>
        {webhook.data?.paused_reason && <PausedNotice reason={webhook.data.paused_reason} />}
        {webhook.data && <WebhookSettings api={resource.api} webhook={webhook.data} />}
      </QueryState>
      <DeliveryLog api={resource.api} webhookId={id} maySendAgain={access.edit} />
    </>
  );
}

function WebhookSettings({ api, webhook }: { api: string; webhook: WebhookAnswer }) {
  const choices = useWebhookEvents(api).data ?? [];
  return (
    <section className="panel" aria-labelledby="webhook-settings-title">
      <h2 id="webhook-settings-title">Settings</h2>
      <dl className="detail-list">
        <DetailItem term="URL">{webhook.url}</DetailItem>
        <DetailItem term="Status">{statusText(webhook)}</DetailItem>
        <DetailItem term="Events it wants">
          <ul className="webhook-settings__events">
            {eventsParts(webhook.events, choices).map((part) => (
              <li key={part}>{part}</li>
            ))}
          </ul>
        </DetailItem>
        <DetailItem term="Signing secret">
          <code>{webhook.secret_hint}…</code>
        </DetailItem>
        <DetailItem term="Made by">
          {webhook.created_by_email ?? '—'} on {formatDate(webhook.created_at, false)}
        </DetailItem>
        <DetailItem term="Last changed">{formatDate(webhook.updated_at, true)}</DetailItem>
      </dl>
    </section>
  );
}

/** Why the server paused the webhook, and what brings it back. */
function PausedNotice({ reason }: { reason: string }) {
  return (
    <div role="status" className="webhook-paused">
      <p>
        <strong>Paused by the server: deliveries kept failing.</strong> {reason}
      </p>
      <p>While it is paused, no event is sent to it. Once its receiver answers again, Edit it and tick Enabled.</p>
    </div>
  );
}

function statusText({ enabled, paused_reason, maker_active }: WebhookAnswer): string {
  if (enabled && !maker_active) return 'Silent: its maker was deactivated or deleted, so no event is sent to it';
  if (enabled) return 'Enabled: events are sent to it';
  return paused_reason === null ? 'Paused: nothing is sent to it' : 'Paused by the server: deliveries kept failing';
}
