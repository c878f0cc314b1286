import { MODULE } from '../../../contract/modules.ts';
import type { Queryable } from '../../db/database.ts';
import { escapeHtml } from '../../http/html.ts';
import { resource } from '../../registry.ts';
import { recordAudit, type AuditActor } from '../audit/record.ts';
import { queueMail } from '../mail/outbox.ts';
import { notify } from '../notifications/store.ts';
import type { ClaimedDelivery } from './deliveries.ts';
import { webhookStore } from './store.ts';

/** The server's own entries name no user: the failing deliveries did it. */
const DELIVERIES: AuditActor = { userId: null, email: null, clientAddress: null, requestId: null };

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
  await recordAudit(tx, DELIVERIES, {
    module: MODULE.webhooks,
    recordId: delivery.webhook_id,
    action: 'paused',
    changes: { enabled: { before: true, after: false } },
    details: { reason, delivery: delivery.id },
  });
  const [maker] = await tx.query<{ id: number; email: string; first_name: string | null }>(
    'SELECT id, email, first_name FROM users WHERE id = $1 AND is_active',
    [paused.created_by],
  );
  if (!maker) return true;
  const screen = resource(MODULE.webhooks)?.routes.view?.path;
  const link = screen ? `${screen}?webhook=${delivery.webhook_id}` : null;
  const url = `${consoleOrigin}${link ?? ''}`;
  const subject = `Webhook ${paused.name} paused: deliveries kept failing`;
  await notify(
    tx,
    Number(maker.id),
    `Webhook <b>${escapeHtml(paused.name)}</b> was paused: ${escapeHtml(reason)}`,
    link,
  );
  await queueMail(tx, {
    to: maker.email,
    subject,
    text: `Hello ${maker.first_name ?? ''},\n\nThe webhook ${paused.name} was paused: ${reason}\n\nWhile it is paused, no event is sent to it. Once its receiver answers again, enable it.\n\nOpen the webhook: ${url}\n`,
    html: `<p>Hello ${escapeHtml(maker.first_name ?? '')},</p><p>The webhook <b>${escapeHtml(paused.name)}</b> was paused: ${escapeHtml(reason)}</p><p>While it is paused, no event is sent to it. Once its receiver answers again, enable it.</p><p><a href="${escapeHtml(url)}">Open the webhook</a></p>`,
    expiresAt: null,
  });
  return true;
}
