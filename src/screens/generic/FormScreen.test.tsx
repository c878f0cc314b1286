import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { subscribers, vouchers } from '../testing/fixtures.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../testing/renderScreen.tsx';
import FormScreen from './FormScreen.tsx';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const addVoucher = routeOf(vouchers, 'add', 'form');
const editVoucher = routeOf(vouchers, 'edit', 'form');

describe('FormScreen', () => {
  it('creates a record, disables submit while saving, and goes back to the list', async () => {
    signInWith({ VOUCHER: ['view', 'add'] });
    let body: unknown;
    server.use(
      mock.post(api('vouchers'), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ data: { id: 7 }, message: 'Voucher created.' }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    const { router } = renderScreen(FormScreen, { resource: vouchers, route: addVoucher });
    expect(screen.getByRole('heading', { level: 1, name: 'Add voucher' })).toHaveFocus();
    await user.type(screen.getByLabelText(/^Code/), 'DIWALI50');
    await user.type(screen.getByLabelText(/^Discount value/), '15');
    await user.click(screen.getByRole('button', { name: 'Create voucher' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/voucher-management/vouchers'));
    expect(body).toEqual({ code: 'DIWALI50', discount_value: 15 });
  });

  it('FORM-12 puts the server field errors on their fields and keeps what was typed', async () => {
    signInWith({ VOUCHER: ['view', 'add'] });
    server.use(mock.post(api('vouchers'), () => HttpResponse.json({ message: 'Validation failed', errors: { code: 'This code is already used' } }, { status: 400 })));
    const user = userEvent.setup();
    const { router } = renderScreen(FormScreen, { resource: vouchers, route: addVoucher });
    await user.type(screen.getByLabelText(/^Code/), 'DIWALI50');
    await user.type(screen.getByLabelText(/^Discount value/), '15');
    await user.click(screen.getByRole('button', { name: 'Create voucher' }));
    const code = screen.getByLabelText(/^Code/);
    await waitFor(() => expect(document.getElementById(`${code.id}__error`)).toHaveTextContent('* This code is already used'));
    expect(code).toHaveValue('DIWALI50');
    expect(screen.getByLabelText(/^Discount value/)).toHaveValue(15);
    expect(router.state.location.pathname).toBe(addVoucher.path);
    expect(screen.getByRole('button', { name: 'Create voucher' })).toBeEnabled();
  });

  it('asks before leaving a form with unsaved changes, and stays when told to', async () => {
    signInWith({ VOUCHER: ['view', 'add'] });
    const user = userEvent.setup();
    const { router } = renderScreen(FormScreen, { resource: vouchers, route: addVoucher });
    await user.type(screen.getByLabelText(/^Code/), 'DRAFT');
    await user.click(screen.getByRole('link', { name: 'Back to vouchers' }));
    const dialog = screen.getByRole('dialog', { name: 'Leave without saving?' });
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe(addVoucher.path);
    expect(screen.getByLabelText(/^Code/)).toHaveValue('DRAFT');
    await user.click(screen.getByRole('link', { name: 'Back to vouchers' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/voucher-management/vouchers'));
  });

  it('leaves an untouched form without asking', async () => {
    signInWith({ VOUCHER: ['view', 'add'] });
    const user = userEvent.setup();
    const { router } = renderScreen(FormScreen, { resource: vouchers, route: addVoucher });
    await user.click(screen.getByRole('link', { name: 'Back to vouchers' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/voucher-management/vouchers'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('edits a record loaded from the API and sends PUT with the form fields only', async () => {
    signInWith({ VOUCHER: ['view', 'edit'] });
    let body: unknown;
    server.use(
      mock.get(api('vouchers/3'), () => HttpResponse.json({ data: { id: 3, code: 'SUMMER', discount_value: 5, used_count: 2, is_active: true, valid_to: null } })),
      mock.put(api('vouchers/3'), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ data: { id: 3 }, message: 'Voucher updated.' });
      }),
    );
    const user = userEvent.setup();
    renderScreen(FormScreen, { resource: vouchers, route: editVoucher, at: '/voucher-management/vouchers/3/edit' });
    const value = await screen.findByLabelText(/^Discount value/);
    expect(value).toHaveValue(5);
    await user.clear(value);
    await user.type(value, '8');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(body).toEqual({ code: 'SUMMER', discount_value: 8 }));
  });

  it('HTTP-04 creating a subscriber posts to subscribers with APP-SOURCE: ADMIN, the relation chosen from its options', async () => {
    signInWith({ SUBSCRIBERS: ['view', 'add'] });
    let appSource: string | null = null;
    let body: unknown;
    server.use(
      mock.get(api('countries/options'), () => HttpResponse.json({ data: [{ value: 1, label: 'India' }, { value: 2, label: 'Nepal' }] })),
      mock.post(api('subscribers'), async ({ request }) => {
        appSource = request.headers.get('APP-SOURCE');
        body = await request.json();
        return HttpResponse.json({ data: { id: 1 }, message: 'Subscriber created.' }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    renderScreen(FormScreen, { resource: subscribers, route: routeOf(subscribers, 'add', 'form') });
    await user.type(screen.getByLabelText(/^Name/), 'Meera Traders');
    await user.type(screen.getByLabelText(/^Email/), 'meera@example.com');
    await screen.findByRole('option', { name: 'Nepal' });
    await user.selectOptions(screen.getByLabelText(/^Country/), 'Nepal');
    await user.click(screen.getByRole('button', { name: 'Create subscriber' }));
    await waitFor(() => expect(appSource).toBe('ADMIN'));
    expect(body).toEqual({ name: 'Meera Traders', email: 'meera@example.com', country_id: 2 });
  });
});
