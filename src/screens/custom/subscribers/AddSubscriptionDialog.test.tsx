import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as subscriberAreaChunk from '../../../generated/areas/subscriber-management.ts';
import { joinArea } from '../../../routing/areaModule.ts';
import { api, server, signInWith } from '../../testing/renderScreen.tsx';
import { AddSubscriptionDialog } from './AddSubscriptionDialog.tsx';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const subscribers = joinArea(subscriberAreaChunk).resources.find((resource) => resource.module === 'SUBSCRIBERS')!;

/** The plans' options, and a quote that knows one voucher code (₹1,000 off Gold); every quote asked is recorded. */
function serveQuotes() {
  const asked: string[] = [];
  server.use(
    mock.get(api('plans/options'), () => HttpResponse.json({ data: [{ value: 2, label: 'Gold' }] })),
    mock.get(api('subscribers/9/subscription-quote'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      asked.push(`${query.get('plan_id')}:${query.get('voucher_code') ?? ''}`);
      const code = query.get('voucher_code');
      if (code && code !== 'DIWALI25')
        return HttpResponse.json(
          { message: 'Invalid voucher.', errors: { voucher_code: 'No voucher has this code.' } },
          { status: 400 },
        );
      return HttpResponse.json({
        data: {
          list_price: 123456,
          discount: code ? 1000 : 0,
          amount_due: code ? 122456 : 123456,
          days: 365,
          voucher_code: code,
        },
      });
    }),
  );
  return asked;
}

function openDialog() {
  const onClose = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AddSubscriptionDialog resource={subscribers} subscriberId="9" onClose={onClose} />
    </QueryClientProvider>,
  );
  return { onClose, dialog: screen.getByRole('dialog', { name: 'Add subscription' }) };
}

const figure = (price: HTMLElement, term: string) => within(price).getByText(term).nextElementSibling?.textContent;

describe('AddSubscriptionDialog', () => {
  it('prices the plan and voucher once each settles, says a refused voucher on its field, and keeps what was typed when the server refuses the sale', async () => {
    signInWith({ SUBSCRIBERS: ['view', 'SUBSCRIBER_DETAIL', 'ADD_SUBSCRIPTION'] });
    const asked = serveQuotes();
    let sent: unknown = null;
    server.use(
      mock.post(api('subscribers/9/subscriptions'), async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json(
          { message: 'Invalid input.', errors: { amount_paid: 'More than the amount due, ₹1,22,456.00.' } },
          { status: 400 },
        );
      }),
    );
    const user = userEvent.setup();
    const { dialog, onClose } = openDialog();
    const price = within(dialog).getByRole('region', { name: 'Price' });
    expect(within(dialog).getByLabelText(/^Starts on/)).toHaveValue(new Date().toLocaleDateString('en-CA'));

    await user.type(within(dialog).getByRole('combobox', { name: /^Plan/ }), 'Go');
    await user.click(await screen.findByRole('option', { name: 'Gold' }));
    await waitFor(() => expect(figure(price, 'Amount due')).toBe('₹1,23,456.00'));

    const voucher = within(dialog).getByLabelText(/^Voucher code/);
    await user.type(voucher, 'nope');
    expect(voucher).toHaveValue('NOPE');
    await waitFor(() => expect(voucher).toHaveAccessibleDescription(/No voucher has this code\./));
    // Asked when the typing stopped, not at every key.
    expect(asked).toEqual(['2:', '2:NOPE']);

    await user.clear(voucher);
    await user.type(voucher, 'diwali25');
    await waitFor(() => expect(figure(price, 'Discount')).toBe('−₹1,000.00'));
    expect(figure(price, 'List price')).toBe('₹1,23,456.00');
    expect(figure(price, 'Amount due')).toBe('₹1,22,456.00');
    expect(voucher).not.toHaveAccessibleDescription(/No voucher/);

    await user.type(within(dialog).getByLabelText(/^Amount paid/), '200000');
    await user.type(within(dialog).getByLabelText(/^Payment reference/), 'UTR-1');
    await user.click(within(dialog).getByRole('button', { name: 'Add subscription' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText(/^Amount paid/)).toHaveAccessibleDescription(
        /More than the amount due, ₹1,22,456\.00\./,
      ),
    );
    expect(sent).toMatchObject({
      plan_id: 2,
      voucher_code: 'DIWALI25',
      amount_paid: 200000,
      payment_reference: 'UTR-1',
      is_trial: false,
    });
    expect(voucher).toHaveValue('DIWALI25');
    expect(within(dialog).getByLabelText(/^Payment reference/)).toHaveValue('UTR-1');
    expect(onClose).not.toHaveBeenCalled();
  });
});
