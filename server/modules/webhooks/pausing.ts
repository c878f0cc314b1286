import { MODULE } from '../../../contract/modules.ts';
import type { Queryable } from '../../db/database.ts';
import { escapeHtml } from '../../http/html.ts';
import { resource } from '../../registry.ts';
import { NO_USER, recordAudit } from '../audit/record.ts';
import { tellPerson, type Listener } from '../notifications/tellPerson.ts';
import type { ClaimedDelivery } from './deliveries.ts';
import { webhookStore } from './store.ts';

/**
 * After a delivery failed for good (its retries ran out, or the server may not send to its address): when nothing got
 * through to its webhook since the delivery's event was queued, the receiver is gone or refuses, and every later event
 * would fail the same way. The webhook is paused (events are neither queued for it nor sent), why is kept on it, the
 * pause has its audit entry, and its maker, if still active, is told in the console and by e-mail with a link to it.
 * Enabling it again sends the deliveries still waiting. Answers whether it was paused.
 */
export async function pauseWhenNothingGetsThrough(
  tx: Queryable,
  delivery: ClaimedDelivery,
  error: string,
  consoleOrigin: string,
): Promise<boolean> {
  const queued = new Date(delivery.created_at);
  const reason = `A ${delivery.event} event could not be delivered (${error.replace(/\.$/, '')}), and nothing got through since it was queued on ${queued.toISOString().slice(0, 16).replace('T', ' ')} UTC.`;
  const paused = await webhookStore.pauseWhenNothingGotThrough(tx, delivery.webhook_id, queued.toISOString(), reason);
  if (!paused) return false;
  await recordAudit(tx, NO_USER, {
    module: MODULE.webhooks,
    recordId: delivery.webhook_id,
    action: 'paused',
    changes: { enabled: { before: true, after: false } },
    details: { reason, delivery: delivery.id },
  });
  const [maker] = await tx.query<Listener>('SELECT id, email, first_name FROM users WHERE id = $1 AND is_active', [
    paused.created_by,
  ]);
  if (!maker) return true;
  const screen = resource(MODULE.webhooks)?.routes.view?.path;
  const advice = 'While it is paused, no event is sent to it. Once its receiver answers again, enable it.';
  await tellPerson(
    tx,
    maker,
    {
      subject: `Webhook ${paused.name} paused: deliveries kept failing`,
      html: `Webhook <b>${escapeHtml(paused.name)}</b> was paused: ${escapeHtml(reason)} ${advice}`,
      text: `The webhook ${paused.name} was paused: ${reason} ${advice}`,
      link: screen ? `${screen}?webhook=${delivery.webhook_id}` : null,
      opens: 'the webhook',
    },
    consoleOrigin,
  );
  return true;
}
