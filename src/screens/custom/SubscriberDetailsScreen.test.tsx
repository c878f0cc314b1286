import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as subscriberAreaChunk from '../../generated/areas/subscriber-management.ts';
import { joinArea } from '../../routing/areaModule.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../testing/renderScreen.tsx';
import { toastError } from '../../shell/toasts.tsx';
import SubscriberDetailsScreen from './SubscriberDetailsScreen.tsx';

vi.mock('../../shell/toasts.tsx', async (original) => ({ ...(await original<object>()), toastError: vi.fn() }));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.mocked(toastError).mockClear();
});
afterAll(() => server.close());

const subscribers = joinArea(subscriberAreaChunk).resources.find((resource) => resource.module === 'SUBSCRIBERS')!;
const route = routeOf(subscribers, 'SUBSCRIBER_DETAIL', 'subscriber-details');
const at = '/subscriber-management/subscribers/9/details';

const subscription = (id: number, state: string, extra: Record<string, unknown> = {}) => ({
  id,
  plan_id: 2,
  plan_label: 'Gold',
  starts_on: '2026-04-01',
  ends_on: '2027-03-31',
  is_trial: false,
  points: 1000,
  list_price: 123456.5,
  voucher_id: null,
  voucher_code: null,
  discount: 0,
  amount_due: 123456.5,
  amount_paid: 123456.5,
  payment_reference: 'UTR-1',
  state,
  cancelled_at: null,
  created_at: '2026-04-01T10:00:00Z',
  ...extra,
});

const ALL_ALLOWED = { add_subscription: true, cancel_subscription: true, add_top_up: true };

/**
 * The subscriber's details as the server answers them; `status` is the server's derived one, changed by a cancel;
 * `can` what the server says its routes would accept from this user for this subscriber.
 */
function serveSubscriber(can = ALL_ALLOWED) {
  let status = 'active';
  const cancelled: number[] = [];
  server.use(
    mock.get(api('subscribers/9/summary'), () =>
      HttpResponse.json({
        data: {
          subscriber: {
            id: 9,
            name: 'Meera Traders',
            email: 'meera@example.com',
            country_id: 1,
            country_id_label: 'India',
            status,
            plan_id: status === 'active' ? 2 : null,
            plan_id_label: status === 'active' ? 'Gold' : null,
            version: 3,
          },
          subscription: subscription(
            4,
            status === 'active' ? 'current' : 'cancelled',
            status === 'active' ? {} : { cancelled_at: '2026-11-20T10:00:00Z' },
          ),
          points_balance: 1200,
          paid_total: 123456.5,
          can,
        },
      }),
    ),
    mock.get(api('subscribers/9/subscriptions'), () =>
      HttpResponse.json({
        data: [
          subscription(5, 'scheduled', {
            starts_on: '2027-04-01',
            ends_on: '2028-03-31',
            voucher_code: 'DIWALI25',
            discount: 100,
            amount_due: 123356.5,
            amount_paid: 0,
            payment_reference: null,
          }),
          subscription(4, cancelled.includes(4) ? 'cancelled' : 'current'),
          subscription(3, 'ended', {
            plan_label: 'Starter',
            is_trial: true,
            starts_on: '2026-03-01',
            ends_on: '2026-03-14',
            list_price: 0,
            amount_due: 0,
            amount_paid: 0,
            payment_reference: null,
          }),
        ],
      }),
    ),
    mock.get(api('subscribers/9/payments'), () =>
      HttpResponse.json({
        data: [
          {
            id: 2,
            kind: 'top_up',
            amount: 999,
            reference: null,
            subscription_id: null,
            ledger_entry_id: 8,
            note: '250 points',
            received_at: '2026-05-02T10:00:00Z',
          },
          {
            id: 1,
            kind: 'subscription',
            amount: 123456.5,
            reference: 'UTR-1',
            subscription_id: 4,
            ledger_entry_id: 7,
            note: 'Gold',
            received_at: '2026-04-01T10:00:00Z',
          },
        ],
      }),
    ),
    mock.get(api('subscribers/9/ledger'), () =>
      HttpResponse.json({
        data: [
          {
            id: 1,
            kind: 'top_up',
            points: 1200,
            balance_after: 1200,
            note: 'Welcome',
            created_at: '2026-01-02T10:00:00Z',
          },
        ],
      }),
    ),
    mock.post(api('subscribers/9/subscriptions/:subscriptionId/cancel'), ({ params }) => {
      cancelled.push(Number(params.subscriptionId));
      status = 'cancelled';
      return HttpResponse.json({ data: subscription(4, 'cancelled'), message: 'Subscription cancelled.' });
    }),
  );
  return { cancelled };
}

/** Every part of the page answers `status`; returns the parts asked for, in order. */
function serveRefusal(status: number) {
  const asked: string[] = [];
  const refuse = (part: string) => () => {
    asked.push(part);
    return HttpResponse.json(
      { message: status === 500 ? 'Some error occurred. Please contact Admin.' : 'Subscriber not found.' },
      { status },
    );
  };
  server.use(
    ...['summary', 'subscriptions', 'payments', 'ledger'].map((part) =>
      mock.get(api(`subscribers/9/${part}`), refuse(part)),
    ),
  );
  return asked;
}

const stat = (term: string) => screen.getByText(term, { selector: '.stat dt' }).nextElementSibling?.textContent;
const rowsOf = (region: string) =>
  within(screen.getByRole('region', { name: region }))
    .getAllByRole('row')
    .slice(1);
const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

describe('SubscriberDetailsScreen', () => {
  it('shows where the subscriber stands, their subscriptions, payments and ledger, and no control the permissions withhold', async () => {
    signInWith({ SUBSCRIBERS: ['view', 'SUBSCRIBER_DETAIL'] });
    serveSubscriber();
    renderScreen(SubscriberDetailsScreen, { resource: subscribers, route, at });
    expect(await screen.findByRole('heading', { level: 1, name: 'Subscriber Meera Traders' })).toBeInTheDocument();
    // Status and plan are the server's derived fields, named by the manifest's labels.
    expect(stat('Subscription')).toBe('Active · Gold until 31 Mar 2027');
    expect(stat('Points balance')).toBe('1,200');
    expect(stat('Paid in total')).toBe('₹1,23,456.50');
    expect(screen.getByText('India')).toBeInTheDocument();

    await screen.findByRole('region', { name: 'Subscriptions table' });
    expect(rowsOf('Subscriptions table').map(cellsOf)).toEqual([
      [
        'Gold',
        '01 Apr 2027 – 31 Mar 2028',
        'Scheduled',
        '₹1,23,456.50',
        'DIWALI25',
        '₹100.00',
        '₹1,23,356.50',
        '₹0.00',
        '—',
      ],
      [
        'Gold',
        '01 Apr 2026 – 31 Mar 2027',
        'Current',
        '₹1,23,456.50',
        '—',
        '₹0.00',
        '₹1,23,456.50',
        '₹1,23,456.50',
        'UTR-1',
      ],
      ['Starter', '01 Mar 2026 – 14 Mar 2026', 'Ended Trial', '₹0.00', '—', '₹0.00', '₹0.00', '₹0.00', '—'],
    ]);
    await screen.findByRole('region', { name: 'Payments table' });
    expect(rowsOf('Payments table').map((row) => cellsOf(row).slice(1))).toEqual([
      ['Top-up', '250 points', '₹999.00', '—'],
      ['Subscription', 'Gold', '₹1,23,456.50', 'UTR-1'],
    ]);
    expect(await screen.findByRole('cell', { name: 'Welcome' })).toBeInTheDocument();
    expect(rowsOf('Ledger table').map((row) => cellsOf(row).slice(1))).toEqual([
      ['Top up', '+1,200', '1,200', 'Welcome'],
    ]);
    expect(screen.queryByRole('button', { name: 'Add top-up' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add subscription' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Cancel / })).not.toBeInTheDocument();
  });

  it('cancels a current subscription after confirming, then every part of the page reloads', async () => {
    signInWith({ SUBSCRIBERS: ['view', 'SUBSCRIBER_DETAIL', 'ADD_SUBSCRIPTION'] });
    const { cancelled } = serveSubscriber();
    const user = userEvent.setup();
    renderScreen(SubscriberDetailsScreen, { resource: subscribers, route, at });
    await screen.findByRole('region', { name: 'Subscriptions table' });
    // Only what has not ended can be cancelled.
    expect(
      screen.getAllByRole('button', { name: /^Cancel / }).map((button) => button.getAttribute('aria-label')),
    ).toEqual(['Cancel Gold, 01 Apr 2027 – 31 Mar 2028', 'Cancel Gold, 01 Apr 2026 – 31 Mar 2027']);
    await user.click(screen.getByRole('button', { name: 'Cancel Gold, 01 Apr 2026 – 31 Mar 2027' }));
    const confirm = screen.getByRole('dialog', { name: 'Cancel this subscription?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel subscription' }));
    await waitFor(() => expect(stat('Subscription')).toBe('Cancelled on 20 Nov 2026'));
    expect(cancelled).toEqual([4]);
    await waitFor(() => expect(cellsOf(rowsOf('Subscriptions table')[1]!)[2]).toBe('Cancelled'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('a subscriber out of reach (an executive not assigned to them) is a 404 page, not a page of failed panels', async () => {
    signInWith({ SUBSCRIBERS: ['view', 'SUBSCRIBER_DETAIL', 'ADD_SUBSCRIPTION', 'ADD_TOP_UP', 'executive_access'] });
    const asked = serveRefusal(404);
    renderScreen(SubscriberDetailsScreen, { resource: subscribers, route, at });
    expect(await screen.findByRole('heading', { level: 1, name: 'ERROR 404 PAGE NOT FOUND' })).toBeInTheDocument();
    expect(screen.queryByText(/Could not load/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Add / })).not.toBeInTheDocument();
    expect(asked).toEqual(['summary']);
    expect(toastError).not.toHaveBeenCalled();
  });

  it('a refused subscriber (403) is the 403 page; a failing server is one message, not one per part', async () => {
    signInWith({ SUBSCRIBERS: ['view', 'SUBSCRIBER_DETAIL'] });
    serveRefusal(403);
    const { unmount } = renderScreen(SubscriberDetailsScreen, { resource: subscribers, route, at });
    expect(await screen.findByRole('heading', { level: 1, name: 'ERROR 403 ACCESS DENIED' })).toBeInTheDocument();
    expect(toastError).not.toHaveBeenCalled();
    unmount();

    const asked = serveRefusal(500);
    renderScreen(SubscriberDetailsScreen, { resource: subscribers, route, at });
    expect(await screen.findByText('Could not load the subscriber.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Points ledger' })).not.toBeInTheDocument();
    expect(asked).toEqual(['summary']);
    expect(toastError).toHaveBeenCalledTimes(1);
  });

  it('offers no sale, cancel or top-up that the server says it would refuse for this subscriber, though the role has them', async () => {
    signInWith({ SUBSCRIBERS: ['view', 'SUBSCRIBER_DETAIL', 'ADD_SUBSCRIPTION', 'ADD_TOP_UP'] });
    serveSubscriber({ add_subscription: false, cancel_subscription: false, add_top_up: false });
    renderScreen(SubscriberDetailsScreen, { resource: subscribers, route, at });
    await screen.findByRole('region', { name: 'Subscriptions table' });
    expect(screen.queryByRole('button', { name: 'Add subscription' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add top-up' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Cancel / })).not.toBeInTheDocument();
  });

  it("opens the subscriber's history, relation labels as the answer gives them", async () => {
    signInWith({ SUBSCRIBERS: ['view', 'SUBSCRIBER_DETAIL'] });
    serveSubscriber();
    server.use(
      mock.get(api('subscribers/9/history'), () =>
        HttpResponse.json({
          data: [
            {
              id: 31,
              at: '2026-11-20T09:30:00Z',
              user_id: 1,
              user_email: 'sales@example.com',
              client_address: null,
              request_id: null,
              module: 'SUBSCRIBERS',
              record_id: 9,
              action: 'update',
              changes: { country_id: { before: 2, after: 1 } },
              details: {},
              restorable: false,
              labels: { country_id: { before: 'Nepal', after: 'India' } },
            },
          ],
          meta: { total: 1, page: 1, page_size: 10 },
        }),
      ),
    );
    const user = userEvent.setup();
    renderScreen(SubscriberDetailsScreen, { resource: subscribers, route, at });
    await user.click(await screen.findByRole('button', { name: 'History' }));
    const country = (await screen.findByRole('rowheader', { name: 'Country' })).closest('tr')!;
    expect([...country.cells].map((cell) => cell.textContent)).toEqual(['Country', 'Nepal', 'India']);
    expect(screen.getByRole('listitem')).toHaveTextContent('by sales@example.com');
  });

  it('sends a top-up once per dialog with one idempotency key, even when submitted twice', async () => {
    signInWith({ SUBSCRIBERS: ['view', 'SUBSCRIBER_DETAIL', 'ADD_TOP_UP'] });
    serveSubscriber();
    const bodies: { idempotency_key: string }[] = [];
    server.use(
      mock.post(api('subscribers/9/top-ups'), async ({ request }) => {
        bodies.push((await request.json()) as { idempotency_key: string });
        return HttpResponse.json({ data: {}, message: 'Top-up added.' }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    renderScreen(SubscriberDetailsScreen, { resource: subscribers, route, at });
    await user.click(await screen.findByRole('button', { name: 'Add top-up' }));
    const dialog = screen.getByRole('dialog', { name: 'Add top-up' });
    await user.type(within(dialog).getByLabelText(/^Points/), '500');
    await user.type(within(dialog).getByLabelText(/^Amount paid/), '999');
    await user.type(within(dialog).getByLabelText(/^Payment reference/), 'UTR-42');
    const submit = within(dialog).getByRole('button', { name: 'Credit points' });
    await user.dblClick(submit);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({ points: 500, amount: 999, payment_reference: 'UTR-42' });
    expect(bodies[0]?.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
  });
});
