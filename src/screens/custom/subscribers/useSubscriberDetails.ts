import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ResourceDescription } from '../../../generated/types.ts';
import { http, isApiError } from '../../../http/index.ts';
import type { Row } from '../../shared/formatValue.ts';

export type SubscriptionState = 'scheduled' | 'current' | 'ended' | 'cancelled';

/** One subscription of a subscriber, amounts in rupees; `plan_label` is null when the plan no longer exists. */
export interface Subscription {
  id: number;
  plan_id: number;
  plan_label: string | null;
  starts_on: string;
  /** The last day covered; null: no end. */
  ends_on: string | null;
  is_trial: boolean;
  points: number;
  list_price: number;
  voucher_code: string | null;
  discount: number;
  amount_due: number;
  amount_paid: number;
  payment_reference: string | null;
  state: SubscriptionState;
  cancelled_at: string | null;
}

/** What the user may do to this subscriber, as the server's routes would judge it (their role and their scope). */
export interface SubscriberActions {
  add_subscription: boolean;
  cancel_subscription: boolean;
  add_top_up: boolean;
}

/**
 * The subscriber with the status and plan (and the plan's label) the server keeps, under the names the subscribers'
 * contract gives them (`SUBSCRIBER_FIELDS`).
 */
export interface SubscriberSummary {
  subscriber: Row;
  /** The current subscription, else the latest one. */
  subscription: Subscription | null;
  points_balance: number;
  paid_total: number;
  can: SubscriberActions;
}

export interface Payment {
  id: number;
  kind: 'subscription' | 'top_up';
  amount: number;
  reference: string | null;
  /** What it paid for: the plan's name, or the points of a top-up. */
  note: string | null;
  received_at: string;
}

export interface LedgerEntry {
  id: number;
  kind: string;
  points: number;
  balance_after: number;
  note: string | null;
  created_at: string;
}

/**
 * A subscriber's details as the screen reads them: summary, subscriptions, payments and points ledger, each its own
 * query under the resource's key, so `refresh` after a change reloads all of them together. The other parts are read
 * once the summary answered: a subscriber the user may not reach (or that does not exist, or a server that fails)
 * is told once, by the summary, instead of once per part. `refused` is the summary's 403 or 404: the screen says it
 * as a page.
 */
export function useSubscriberDetails(resource: ResourceDescription, id: string) {
  const queryClient = useQueryClient();
  const base = `${resource.api}/${id}`;
  const read = <T>(part: string, enabled = true) => ({
    queryKey: ['resource', resource.api, part, id],
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      http.get<{ data: T }>(`${base}/${part}`, { signal, shownByCaller: REFUSALS }).then((body) => body.data),
    enabled,
  });
  const summary = useQuery(read<SubscriberSummary>('summary'));
  const reached = summary.isSuccess;
  const failed = isApiError(summary.error) ? summary.error.status : null;
  const refusal = REFUSALS.find((status) => status === failed);
  return {
    summary,
    subscriptions: useQuery(read<Subscription[]>('subscriptions', reached)),
    payments: useQuery(read<Payment[]>('payments', reached)),
    ledger: useQuery(read<LedgerEntry[]>('ledger', reached)),
    refused: refusal ?? null,
    refresh: () => void queryClient.invalidateQueries({ queryKey: ['resource', resource.api] }),
  };
}

const REFUSALS = [403, 404] as const;
