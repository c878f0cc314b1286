import type { AuditEntryAnswer } from '../../../contract/audit.ts';
import { formatDate, formatMoney, formatValue } from '../shared/formatValue.ts';
import { humanize } from '../shared/humanize.ts';

type Details = Record<string, unknown>;

const number = new Intl.NumberFormat('en-IN');
const money = (value: unknown) => (typeof value === 'number' ? formatMoney(value) : null);

/**
 * What an entry did, in words, from its details: a top-up's points and payment, a sale's plan and money; for any other
 * entry that changed no field, its details as "Label: value". null: nothing to say beyond the changes.
 */
export function entrySummary(entry: Pick<AuditEntryAnswer, 'action' | 'changes' | 'details'>): string | null {
  const details = entry.details ?? {};
  if (entry.action === 'top_up') return topUp(details);
  if (entry.action === 'subscribe') return sale(details);
  if (entry.action === 'subscription_cancel') return 'The subscription was cancelled; its payments stay recorded.';
  if (Object.keys(entry.changes).length > 0) return null;
  const parts = Object.entries(details)
    // Ids are the system's references, not what a person reads.
    .filter(
      ([key, value]) =>
        value !== null &&
        value !== undefined &&
        value !== '' &&
        key !== 'id' &&
        !key.endsWith('_id') &&
        typeof value !== 'object',
    )
    .map(([key, value]) => `${humanize(key)}: ${formatValue(undefined, { [key]: value }, key)}`);
  return parts.length > 0 ? `${parts.join('; ')}.` : null;
}

function topUp(details: Details): string {
  const points = typeof details.points === 'number' ? `${number.format(details.points)} points added` : 'Points added';
  const paid = money(details.amount);
  return sentence([
    paid && Number(details.amount) > 0 ? `${points} for ${paid}` : points,
    withText('payment reference', details.payment_reference),
    withText('note', details.note),
  ]);
}

function sale(details: Details): string {
  const plan = typeof details.plan === 'string' ? details.plan : 'a plan';
  const from = typeof details.starts_on === 'string' ? ` from ${formatDate(details.starts_on, false)}` : '';
  const voucher =
    typeof details.voucher === 'string'
      ? `voucher ${details.voucher}${money(details.discount) ? ` (${money(details.discount)} off)` : ''}`
      : null;
  return sentence([
    `${details.is_trial ? 'Trial of' : 'Subscribed to'} ${plan}${from}`,
    money(details.list_price) && `list price ${money(details.list_price)}`,
    voucher,
    money(details.amount_due) && `${money(details.amount_due)} due`,
    money(details.amount_paid) && `${money(details.amount_paid)} paid`,
    withText('payment reference', details.payment_reference),
  ]);
}

function withText(label: string, value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? `${label} ${value.trim()}` : null;
}

/** "A, b, c." from the parts that have something to say. */
function sentence(parts: readonly (string | null | false | undefined)[]): string {
  return `${parts.filter(Boolean).join(', ')}.`;
}
