import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { subscribers } from '../testing/fixtures.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../testing/renderScreen.tsx';
import SubscriberDetailsScreen from './SubscriberDetailsScreen.tsx';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const route = routeOf(subscribers, 'SUBSCRIBER_DETAIL', 'subscriber-details');

function serveSubscriber({ current = true } = {}) {
  server.use(
    mock.get(api('subscribers/9/summary'), () =>
      HttpResponse.json({
        data: {
          subscriber: { id: 9, name: 'Meera Traders', email: 'meera@example.com', country_id: 1, country_id_label: 'India', version: 3 },
          subscription: { id: 4, subscriber_id: 9, plan_id: 2, plan_label: 'Pro Annual', starts_on: '2025-01-01', ends_on: current ? '2026-12-31' : '2025-12-31', is_current: current },
          points_balance: 1200,
        },
      }),
    ),
    mock.get(api('subscribers/9/ledger'), () => HttpResponse.json({ data: [{ id: 1, kind: 'top_up', points: 1200, balance_after: 1200, note: 'Welcome', created_at: '2026-01-02T10:00:00Z' }] })),
  );
}

describe('SubscriberDetailsScreen', () => {
  it('shows the profile, balance and ledger, and only the flows the permissions grant', async () => {
    signInWith({ SUBSCRIBERS: ['view', 'SUBSCRIBER_DETAIL'] });
    serveSubscriber();
    renderScreen(SubscriberDetailsScreen, { resource: subscribers, route, at: '/subscriber-management/subscribers/9/details' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Subscriber Meera Traders' })).toBeInTheDocument();
    expect(screen.getByText('India')).toBeInTheDocument();
    expect(screen.getByText('1,200', { selector: 'dd' })).toBeInTheDocument();
    // The current plan by its name, never its id.
    const currentPlan = screen.getByText('Current plan').closest('div')!;
    expect(within(currentPlan).getByRole('definition')).toHaveTextContent(/^Pro Annual$/);
    expect(within(currentPlan).getByRole('definition')).not.toHaveTextContent('2');
    expect(await screen.findByRole('cell', { name: 'Welcome' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add top-up' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add subscription' })).not.toBeInTheDocument();
  });

  it('a subscription that has ended is no current plan: it shows as the last plan and when it ended', async () => {
    signInWith({ SUBSCRIBERS: ['view', 'SUBSCRIBER_DETAIL'] });
    serveSubscriber({ current: false });
    renderScreen(SubscriberDetailsScreen, { resource: subscribers, route, at: '/subscriber-management/subscribers/9/details' });
    await screen.findByRole('heading', { level: 1, name: 'Subscriber Meera Traders' });
    expect(within(screen.getByText('Current plan').closest('div')!).getByRole('definition')).toHaveTextContent(/^None$/);
    expect(within(screen.getByText('Last plan').closest('div')!).getByRole('definition')).toHaveTextContent(/^Pro Annual, ended /);
    expect(screen.queryByText('Valid until')).not.toBeInTheDocument();
  });

  it("opens the subscriber's history, relation labels as the answer gives them", async () => {
    signInWith({ SUBSCRIBERS: ['view', 'SUBSCRIBER_DETAIL'] });
    serveSubscriber();
    server.use(
      mock.get(api('subscribers/9/history'), () =>
        HttpResponse.json({
          data: [
            {
              id: 31, at: '2026-11-20T09:30:00Z', user_id: 1, user_email: 'sales@example.com', client_address: null, request_id: null, module: 'SUBSCRIBERS', record_id: 9,
              action: 'update', changes: { country_id: { before: 2, after: 1 } }, details: {}, restorable: false, labels: { country_id: { before: 'Nepal', after: 'India' } },
            },
          ],
          meta: { page: 1, pageSize: 10, total: 1 },
        }),
      ),
    );
    const user = userEvent.setup();
    renderScreen(SubscriberDetailsScreen, { resource: subscribers, route, at: '/subscriber-management/subscribers/9/details' });
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
        return HttpResponse.json({ data: {}, message: 'Top-up credited.' }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    renderScreen(SubscriberDetailsScreen, { resource: subscribers, route, at: '/subscriber-management/subscribers/9/details' });
    await user.click(await screen.findByRole('button', { name: 'Add top-up' }));
    const dialog = screen.getByRole('dialog', { name: 'Add top-up' });
    await user.type(within(dialog).getByLabelText(/^Points/), '500');
    await user.type(within(dialog).getByLabelText(/^Amount paid/), '999');
    const submit = within(dialog).getByRole('button', { name: 'Credit points' });
    await user.dblClick(submit);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({ points: 500, amount: 999 });
    expect(bodies[0]?.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
  });
});
