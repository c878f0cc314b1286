import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/screens/shared/formatValue.ts';
import { renderConsole, signInAs } from './consoleApp.tsx';
import { callApi, login, startRealApi, type RealApi } from './realApi.ts';

let api: RealApi;
beforeAll(async () => {
  api = await startRealApi();
});
afterAll(async () => {
  await api?.close();
});

const SLOW = { timeout: 10_000 };
const details = (id: number) => `/subscriber-management/subscribers/${id}/details`;

interface Plan {
  id: number;
  name: string;
  price: number;
  validity_days: number;
  is_active: boolean;
}

/** A fresh subscriber (no subscriptions yet), a priced active plan long enough not to be expiring at once, and a ₹500 voucher for that plan, made through the API. */
async function setUp(token: string) {
  const plans = (await callApi(token, 'GET', 'plans?_page_size=100')).body.data as Plan[];
  const plan = plans.find((candidate) => candidate.is_active && candidate.price > 0 && candidate.validity_days > 60)!;
  const countries = (await callApi(token, 'GET', 'countries/options')).body.data as { value: number }[];
  const stamp = Date.now().toString(36).toUpperCase();
  const letters = stamp.replace(/[^A-Z]/g, '') || 'X';
  const created = await callApi(token, 'POST', 'subscribers', {
    name: `Money Check ${letters}`,
    email: `money-${stamp.toLowerCase()}@example.com`,
    mobile: '9876512345',
    country_id: countries[0]!.value,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const voucherCode = `IT${stamp}`.slice(0, 20);
  const voucher = await callApi(token, 'POST', 'vouchers', {
    code: voucherCode,
    description: 'Integration voucher',
    discount_type: 'flat',
    discount_value: 500,
    valid_from: '2026-01-01',
    valid_to: '2030-12-31',
    usage_limit: 10,
    plan_id: plan.id,
  });
  expect(voucher.status, JSON.stringify(voucher.body)).toBe(201);
  return { plan, subscriber: created.body.data as { id: number; name: string }, voucherCode };
}

const stat = (term: string) => screen.getByText(term, { selector: '.stat dt' }).nextElementSibling?.textContent;

describe('subscriber money against the real API', () => {
  it('a subscription is sold with a voucher at the quoted price, then cancelled, and every part of the page follows', async () => {
    const admin = await signInAs('Super Admin');
    const { plan, subscriber, voucherCode } = await setUp(admin.access);
    const quoted = (
      await callApi(
        admin.access,
        'GET',
        `subscribers/${subscriber.id}/subscription-quote?plan_id=${plan.id}&voucher_code=${voucherCode}&is_trial=false`,
      )
    ).body.data as {
      list_price: number;
      discount: number;
      amount_due: number;
    };
    expect(quoted.discount).toBeGreaterThan(0);

    const user = userEvent.setup();
    renderConsole(details(subscriber.id));
    await screen.findByRole('heading', { level: 1, name: `Subscriber ${subscriber.name}` }, SLOW);
    expect(stat('Subscription')).toBe('No subscription');
    expect(stat('Paid in total')).toBe(formatMoney(0));
    expect(await screen.findByText('No subscriptions yet.', {}, SLOW)).toBeInTheDocument();
    expect(await screen.findByText('No payments yet.', {}, SLOW)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add subscription' }));
    const dialog = screen.getByRole('dialog', { name: 'Add subscription' });
    const price = within(dialog).getByRole('region', { name: 'Price' });
    expect(price).toHaveTextContent('Choose a plan to see its price.');
    await user.type(within(dialog).getByRole('combobox', { name: /^Plan/ }), plan.name.slice(0, 4));
    await user.click(await within(dialog).findByRole('option', { name: plan.name }, SLOW));
    await waitFor(
      () =>
        expect(within(price).getByText('List price').nextElementSibling).toHaveTextContent(
          formatMoney(quoted.list_price),
        ),
      SLOW,
    );

    // A code the server does not know is said on the voucher field; what is typed is upper-cased.
    const voucherField = within(dialog).getByLabelText(/^Voucher code/);
    await user.type(voucherField, 'nosuch');
    expect(voucherField).toHaveValue('NOSUCH');
    await waitFor(() => expect(voucherField).toHaveAccessibleDescription(/No voucher has this code/), SLOW);
    expect(price).toHaveTextContent('No price while the voucher code is refused.');

    await user.clear(voucherField);
    await user.type(voucherField, voucherCode.toLowerCase());
    await waitFor(
      () =>
        expect(within(price).getByText('Amount due').nextElementSibling).toHaveTextContent(
          formatMoney(quoted.amount_due),
        ),
      SLOW,
    );
    expect(within(price).getByText('Discount').nextElementSibling).toHaveTextContent(
      `−${formatMoney(quoted.discount)}`,
    );
    expect(voucherField).not.toHaveAccessibleDescription(/voucher/i);

    // More than is due: the server's word shows on the field and nothing typed is lost.
    const paid = within(dialog).getByLabelText(/^Amount paid/);
    await user.type(paid, String(quoted.amount_due + 1));
    await user.type(within(dialog).getByLabelText(/^Payment reference/), 'UTR-778899');
    await user.click(within(dialog).getByRole('button', { name: 'Add subscription' }));
    await waitFor(() => expect(paid).toHaveAccessibleDescription(/More than the amount due/), SLOW);
    expect(voucherField).toHaveValue(voucherCode);
    expect(within(dialog).getByLabelText(/^Payment reference/)).toHaveValue('UTR-778899');

    await user.clear(paid);
    await user.type(paid, String(quoted.amount_due));
    await user.click(within(dialog).getByRole('button', { name: 'Add subscription' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), SLOW);

    // Summary, subscriptions, payments and ledger all tell the same story as the server.
    const summary = (await callApi(admin.access, 'GET', `subscribers/${subscriber.id}/summary`)).body.data;
    expect(summary.subscriber.status).toBe('active');
    await waitFor(
      () => expect(stat('Subscription')).toMatch(new RegExp(`^Active · ${plan.name} until \\d{2} \\w{3,4} \\d{4}$`)),
      SLOW,
    );
    await waitFor(() => expect(stat('Paid in total')).toBe(formatMoney(quoted.amount_due)), SLOW);
    const subscriptions = await screen.findByRole('region', { name: 'Subscriptions table' }, SLOW);
    const sold = await within(subscriptions).findByRole('row', { name: new RegExp(plan.name) }, SLOW);
    expect(sold).toHaveTextContent('Current');
    expect(sold).toHaveTextContent(voucherCode);
    expect(sold).toHaveTextContent('UTR-778899');
    const payments = await screen.findByRole('region', { name: 'Payments table' }, SLOW);
    const payment = await within(payments).findByRole('row', { name: /Subscription/ }, SLOW);
    expect(payment).toHaveTextContent(formatMoney(quoted.amount_due));
    expect(payment).toHaveTextContent('UTR-778899');
    expect(
      await within(screen.getByRole('region', { name: 'Points ledger' })).findByText(
        `Subscription to ${plan.name}`,
        {},
        SLOW,
      ),
    ).toBeInTheDocument();

    await user.click(within(sold).getByRole('button', { name: /^Cancel / }));
    const confirm = screen.getByRole('dialog', { name: 'Cancel this subscription?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel subscription' }));
    await waitFor(() => expect(stat('Subscription')).toMatch(/^Cancelled on /), SLOW);
    await waitFor(
      () =>
        expect(within(subscriptions).getByRole('row', { name: new RegExp(plan.name) })).toHaveTextContent('Cancelled'),
      SLOW,
    );
    expect(within(subscriptions).queryByRole('button', { name: /^Cancel / })).not.toBeInTheDocument();
    // The money paid stays recorded.
    expect(stat('Paid in total')).toBe(formatMoney(quoted.amount_due));
  }, 60_000);

  it('a trial takes no voucher, and the Read Only role sees the money but no button to change it', async () => {
    const admin = await login('Super Admin');
    const { plan, subscriber, voucherCode } = await setUp(admin.access);
    const trial = await callApi(
      admin.access,
      'GET',
      `subscribers/${subscriber.id}/subscription-quote?plan_id=${plan.id}&voucher_code=${voucherCode}&is_trial=true`,
    );
    expect(trial.status).toBe(400);
    const sold = await callApi(admin.access, 'POST', `subscribers/${subscriber.id}/subscriptions`, {
      plan_id: plan.id,
      starts_on: new Date().toISOString().slice(0, 10),
      is_trial: true,
      amount_paid: 0,
    });
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);

    await signInAs('Read Only');
    renderConsole(details(subscriber.id));
    await screen.findByRole('heading', { level: 1, name: `Subscriber ${subscriber.name}` }, SLOW);
    const subscriptions = await screen.findByRole('region', { name: 'Subscriptions table' }, SLOW);
    expect(within(subscriptions).getByRole('row', { name: new RegExp(plan.name) })).toHaveTextContent('Trial');
    expect(screen.queryByRole('button', { name: 'Add subscription' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add top-up' })).not.toBeInTheDocument();
    expect(within(subscriptions).queryByRole('columnheader', { name: 'Actions' })).not.toBeInTheDocument();
  }, 60_000);
});
