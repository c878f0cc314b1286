import { describe, expect, it } from 'vitest';
import * as subscriberAreaChunk from '../../../generated/areas/subscriber-management.ts';
import { joinArea } from '../../../routing/areaModule.ts';
import { localDate, subscriptionStanding } from './subscriptionStanding.ts';
import type { Subscription, SubscriberSummary } from './useSubscriberDetails.ts';

const statusField = joinArea(subscriberAreaChunk)
  .resources.find((resource) => resource.module === 'SUBSCRIBERS')!
  .entity!.fields.find((field) => field.name === 'status')!;

const gold = (extra: Partial<Subscription>): Subscription => ({
  id: 4,
  plan_id: 2,
  plan_label: 'Gold',
  starts_on: '2026-04-01',
  ends_on: '2027-03-31',
  is_trial: false,
  points: 1000,
  list_price: 999,
  voucher_code: null,
  discount: 0,
  amount_due: 999,
  amount_paid: 999,
  payment_reference: null,
  state: 'current',
  cancelled_at: null,
  ...extra,
});

function summary(
  status: string,
  subscription: Subscription | null,
  plan: { plan_id: number; plan_id_label: string } | null = null,
): Pick<SubscriberSummary, 'subscriber' | 'subscription'> {
  return {
    subscriber: { id: 9, status, plan_id: plan?.plan_id ?? null, plan_id_label: plan?.plan_id_label ?? null },
    subscription,
  };
}

const TODAY = '2026-11-26';
const GOLD = { plan_id: 2, plan_id_label: 'Gold' };

describe('subscriptionStanding', () => {
  it.each([
    ['active', summary('active', gold({}), GOLD), 'Active · Gold until 31 Mar 2027'],
    [
      'trial',
      summary('trial', gold({ is_trial: true, ends_on: '2026-12-10' }), GOLD),
      'Trial · Gold until 10 Dec 2026',
    ],
    [
      'expiring in days',
      summary('expiring', gold({ ends_on: '2026-12-08' }), GOLD),
      'Expiring in 12 days · Gold until 08 Dec 2026',
    ],
    [
      'expiring tomorrow',
      summary('expiring', gold({ ends_on: '2026-11-27' }), GOLD),
      'Expiring tomorrow · Gold until 27 Nov 2026',
    ],
    ['expiring today', summary('expiring', gold({ ends_on: TODAY }), GOLD), 'Expiring today · Gold until 26 Nov 2026'],
    ['expired', summary('expired', gold({ state: 'ended', ends_on: '2026-03-04' })), 'Expired on 04 Mar 2026'],
    ['no subscription', summary('none', null), 'No subscription'],
    ['active without an end', summary('active', gold({ ends_on: null }), GOLD), 'Active · Gold'],
  ])('%s', (_, standing, text) => {
    expect(subscriptionStanding(standing, statusField, TODAY)).toBe(text);
  });

  it("takes the plan from the subscriber's derived plan, not from a subscription that is not the current one", () => {
    const scheduledSilver = gold({ plan_id: 3, plan_label: 'Silver', state: 'scheduled' });
    expect(subscriptionStanding(summary('active', scheduledSilver, GOLD), statusField, TODAY)).toBe('Active · Gold');
  });

  it('cancelled: the day it was cancelled where the user is', () => {
    const at = new Date(2026, 10, 20, 23, 30);
    const cancelled = summary('cancelled', gold({ state: 'cancelled', cancelled_at: at.toISOString() }));
    expect(subscriptionStanding(cancelled, statusField, TODAY)).toBe('Cancelled on 20 Nov 2026');
    expect(localDate(at)).toBe('2026-11-20');
  });
});
