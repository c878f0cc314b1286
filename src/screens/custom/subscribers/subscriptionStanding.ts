import { SUBSCRIBER_FIELDS } from '../../../../contract/modules.ts';
import type { FieldDescription } from '../../../generated/types.ts';
import { enumLabel, formatDate } from '../../shared/formatValue.ts';
import type { SubscriberSummary } from './useSubscriberDetails.ts';

const DAY_MS = 86_400_000;

/** The calendar date where the user is (today unless told), as the API writes dates (`2026-11-27`). */
export function localDate(at = new Date()): string {
  const pad = (part: number) => String(part).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

function inDays(days: number): string {
  if (days <= 0) return 'today';
  if (days === 1) return 'tomorrow';
  return `in ${days} days`;
}

/**
 * One line that says where the subscriber stands: "Active · Gold until 31 Mar 2027", "Expiring in 12 days · Gold
 * until 08 Dec 2026", "Expired on 04 Mar 2026", "No subscription". The status and the plan are the server's derived
 * ones, read by the names the subscribers' contract gives them (`SUBSCRIBER_FIELDS`) and named by the manifest's
 * labels, never worked out here, so the line cannot contradict the list; only the dates come from the subscription
 * the summary answers with.
 */
export function subscriptionStanding(
  summary: Pick<SubscriberSummary, 'subscriber' | 'subscription'>,
  statusField: Pick<FieldDescription, 'enumLabels'>,
  today = localDate(),
): string {
  const { subscriber, subscription } = summary;
  const plan = SUBSCRIBER_FIELDS.plan.field;
  const planId = subscriber[plan];
  const status = String(subscriber[SUBSCRIBER_FIELDS.status.field] ?? 'none');
  const word = enumLabel(statusField, status);
  const current = subscription?.state === 'current' && subscription.plan_id === planId ? subscription : null;
  const planName = subscriber[`${plan}_label`] ?? current?.plan_label ?? (planId ? `Plan #${String(planId)}` : null);
  const coverage =
    planName && `${String(planName)}${current?.ends_on ? ` until ${formatDate(current.ends_on, false)}` : ''}`;
  switch (status) {
    case 'active':
    case 'trial':
      return coverage ? `${word} · ${coverage}` : word;
    case 'expiring':
      return [current?.ends_on ? `${word} ${inDays(daysBetween(today, current.ends_on))}` : word, coverage]
        .filter(Boolean)
        .join(' · ');
    case 'expired':
      return subscription?.ends_on ? `${word} on ${formatDate(subscription.ends_on, false)}` : word;
    case 'cancelled':
      return subscription?.cancelled_at
        ? `${word} on ${formatDate(localDate(new Date(subscription.cancelled_at)), false)}`
        : word;
    default:
      return word;
  }
}
