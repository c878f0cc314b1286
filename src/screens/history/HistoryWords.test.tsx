import { screen, within } from '@testing-library/react';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEntryAnswer } from '../../../contract/audit.ts';
import * as subscriberAreaChunk from '../../generated/areas/subscriber-management.ts';
import * as voucherAreaChunk from '../../generated/areas/voucher-management.ts';
import type { ResourceDescription } from '../../generated/types.ts';
import { joinArea } from '../../routing/areaModule.ts';
import type { ScreenProps } from '../ScreenProps.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../testing/renderScreen.tsx';
import { entrySummary } from './entrySummary.ts';
import HistoryPanel from './HistoryPanel.tsx';
import { readableChanges } from './readableChanges.ts';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The resources as the manifest describes them, so titles and units are the manifest's own. */
const subscribers = joinArea(subscriberAreaChunk).resources.find((resource) => resource.module === 'SUBSCRIBERS')!;
const vouchers = joinArea(voucherAreaChunk).resources.find((resource) => resource.module === 'VOUCHER')!;

function entry(id: number, overrides: Partial<HistoryEntryAnswer>): HistoryEntryAnswer {
  const base = {
    id,
    at: '2026-11-20T09:30:00Z',
    user_id: 1,
    user_email: 'sales@example.com',
    api_token: null,
    client_address: null,
    request_id: null,
    module: 'SUBSCRIBERS',
    record_id: 5,
  };
  return { ...base, action: 'update', changes: {}, details: {}, restorable: false, labels: {}, ...overrides };
}

const TOP_UP = entry(3, {
  action: 'top_up',
  details: { ledger_entry_id: 41, payment_id: 12, points: 500, amount: 990, payment_reference: 'UTR123', note: null },
});
const SALE = entry(2, {
  action: 'subscribe',
  changes: {
    status: { before: 'trial', after: 'subscribed' },
    plan_id: { before: null, after: 3 },
    plan_id_label: { before: null, after: 'Pro' },
  },
  details: {
    subscription_id: 8,
    plan_id: 3,
    plan: 'Pro',
    is_trial: false,
    starts_on: '2026-11-20',
    list_price: 1999,
    voucher: 'DIWALI',
    discount: 200,
    amount_due: 1799,
    amount_paid: 1799,
    payment_reference: null,
  },
});

function Panel({ resource }: ScreenProps) {
  return <HistoryPanel resource={resource as ResourceDescription} recordId="5" version={2} />;
}

describe('History in words', () => {
  it('says what a top-up and a sale did, and reads every field by its title: no field names, no "No field changed"', async () => {
    signInWith({ SUBSCRIBERS: ['view', 'view_detail'] });
    server.use(
      mock.get(api('subscribers/5/history'), () =>
        HttpResponse.json({ data: [TOP_UP, SALE], meta: { total: 2, page: 1, page_size: 10 } }),
      ),
    );
    renderScreen(Panel, { resource: subscribers, route: routeOf(subscribers, 'view', 'list') });
    const [topUp, sale] = await screen.findAllByRole('listitem');
    expect(within(topUp!).getByText('Points topped up')).toBeInTheDocument();
    expect(topUp).toHaveTextContent('500 points added for ₹990.00, payment reference UTR123.');
    expect(topUp).not.toHaveTextContent('No field changed');
    expect(within(topUp!).queryByRole('table')).not.toBeInTheDocument();

    expect(sale).toHaveTextContent(
      'Subscribed to Pro from 20 Nov 2026, list price ₹1,999.00, voucher DIWALI (₹200.00 off), ₹1,799.00 due, ₹1,799.00 paid.',
    );
    const plan = within(sale!).getByRole('rowheader', { name: 'Current plan' }).closest('tr')!;
    expect([...plan.cells].map((cell) => cell.textContent)).toEqual(['Current plan', '—', 'Pro']);
    expect(
      within(sale!)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Status', 'Current plan']);
    expect(sale).not.toHaveTextContent(/label|plan_id|_id/i);
  });
});

describe('readableChanges and entrySummary', () => {
  it("reads a voucher's discount by the type on the same side of the change", () => {
    const changes = readableChanges(
      { discount_type: { before: 'percent', after: 'flat' }, discount_value: { before: 13, after: 990 } },
      vouchers.entity!.fields,
    );
    expect(changes.find((change) => change.field === 'discount_value')).toEqual({
      field: 'discount_value',
      title: 'Discount value',
      before: '13%',
      after: '₹990.00',
    });
  });

  it('reads a recorded label under its relation when the relation itself is not among the changes', () => {
    expect(readableChanges({ plan_id_label: { before: 'Starter', after: 'Pro' } }, subscribers.entity!.fields)).toEqual(
      [{ field: 'plan_id', title: 'Current plan', before: 'Starter', after: 'Pro' }],
    );
  });

  it('words the details of other entries without a change, leaving out ids; nothing to add to an entry with changes', () => {
    expect(
      entrySummary({
        action: 'import',
        changes: {},
        details: { status: 'completed', rows_accepted: 1200, upload_id: 4 },
      }),
    ).toBe('Status: completed; Rows accepted: 1,200.');
    expect(
      entrySummary({
        action: 'update',
        changes: { code: { before: 'A', after: 'B' } },
        details: { used_by_subscription: 3 },
      }),
    ).toBeNull();
    expect(entrySummary({ action: 'top_up', changes: {}, details: { points: 20, amount: 0 } })).toBe(
      '20 points added.',
    );
  });
});
