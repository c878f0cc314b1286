import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as subscriberAreaChunk from '../../generated/areas/subscriber-management.ts';
import * as voucherAreaChunk from '../../generated/areas/voucher-management.ts';
import { subscribers, vouchers } from '../testing/fixtures.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../testing/renderScreen.tsx';
import FormScreen from './FormScreen.tsx';
import { joinArea } from '../../routing/areaModule.ts';

const subscriberArea = joinArea(subscriberAreaChunk);
const voucherArea = joinArea(voucherAreaChunk);

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
    const { history } = renderScreen(FormScreen, { resource: vouchers, route: addVoucher });
    expect(screen.getByRole('heading', { level: 1, name: 'Add voucher' })).toHaveFocus();
    await user.type(screen.getByLabelText(/^Code/), 'DIWALI50');
    await user.type(screen.getByLabelText(/^Discount value/), '15');
    await user.click(screen.getByRole('button', { name: 'Create voucher' }));
    await waitFor(() => expect(history.location.pathname).toBe('/voucher-management/vouchers'));
    expect(body).toEqual({ code: 'DIWALI50', discount_value: 15 });
  });

  it('FORM-12 puts the server field errors on their fields and keeps what was typed', async () => {
    signInWith({ VOUCHER: ['view', 'add'] });
    server.use(
      mock.post(api('vouchers'), () =>
        HttpResponse.json(
          { message: 'Code: This code is already used.', errors: { code: 'This code is already used' } },
          { status: 400 },
        ),
      ),
    );
    const user = userEvent.setup();
    const { history } = renderScreen(FormScreen, { resource: vouchers, route: addVoucher });
    await user.type(screen.getByLabelText(/^Code/), 'DIWALI50');
    await user.type(screen.getByLabelText(/^Discount value/), '15');
    await user.click(screen.getByRole('button', { name: 'Create voucher' }));
    const code = screen.getByLabelText(/^Code/);
    await waitFor(() =>
      expect(document.getElementById(`${code.id}__error`)).toHaveTextContent('* This code is already used'),
    );
    expect(code).toHaveValue('DIWALI50');
    expect(screen.getByLabelText(/^Discount value/)).toHaveValue(15);
    expect(history.location.pathname).toBe(addVoucher.path);
    expect(screen.getByRole('button', { name: 'Create voucher' })).toBeEnabled();
  });

  it('asks before leaving a form with unsaved changes, and stays when told to', async () => {
    signInWith({ VOUCHER: ['view', 'add'] });
    const user = userEvent.setup();
    const { history } = renderScreen(FormScreen, { resource: vouchers, route: addVoucher });
    await user.type(screen.getByLabelText(/^Code/), 'DRAFT');
    await user.click(screen.getByRole('link', { name: 'Back to vouchers' }));
    const dialog = screen.getByRole('dialog', { name: 'Leave without saving?' });
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(history.location.pathname).toBe(addVoucher.path);
    expect(screen.getByLabelText(/^Code/)).toHaveValue('DRAFT');
    await user.click(screen.getByRole('link', { name: 'Back to vouchers' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(history.location.pathname).toBe('/voucher-management/vouchers'));
  });

  it('leaves an untouched form without asking', async () => {
    signInWith({ VOUCHER: ['view', 'add'] });
    const user = userEvent.setup();
    const { history } = renderScreen(FormScreen, { resource: vouchers, route: addVoucher });
    await user.click(screen.getByRole('link', { name: 'Back to vouchers' }));
    await waitFor(() => expect(history.location.pathname).toBe('/voucher-management/vouchers'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('edits a record loaded from the API and sends PUT with the form fields only', async () => {
    signInWith({ VOUCHER: ['view', 'edit'] });
    let body: unknown;
    let ifMatch: string | null = null;
    server.use(
      mock.get(api('vouchers/3'), () =>
        HttpResponse.json({
          data: {
            id: 3,
            code: 'SUMMER',
            discount_value: 5,
            used_count: 2,
            is_active: true,
            valid_to: null,
            version: 4,
          },
        }),
      ),
      mock.put(api('vouchers/3'), async ({ request }) => {
        ifMatch = request.headers.get('if-match');
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
    expect(ifMatch).toBe('"4"');
  });

  it('HTTP-04 creating a subscriber posts to subscribers with APP-SOURCE: ADMIN, the relation chosen from its options', async () => {
    signInWith({ SUBSCRIBERS: ['view', 'add'] });
    let appSource: string | null = null;
    let body: unknown;
    server.use(
      mock.get(api('countries/options'), ({ request }) => {
        const q = new URL(request.url).searchParams.get('q') ?? '';
        return HttpResponse.json({
          data: [
            { value: 1, label: 'India' },
            { value: 2, label: 'Nepal' },
          ].filter((option) => option.label.toLowerCase().includes(q)),
        });
      }),
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
    await user.type(screen.getByRole('combobox', { name: /^Country/ }), 'nep');
    await user.click(await screen.findByRole('option', { name: 'Nepal' }));
    await user.click(screen.getByRole('button', { name: 'Create subscriber' }));
    await waitFor(() => expect(appSource).toBe('ADMIN'));
    expect(body).toEqual({ name: 'Meera Traders', email: 'meera@example.com', country_id: 2 });
  });

  it('a relation picker searches the server as the user types (once the typing pauses), picks with the keyboard, and labels the current value by its id', async () => {
    signInWith({ SUBSCRIBERS: ['view', 'edit'] });
    const searches: string[] = [];
    const lookups: string[] = [];
    const countries = Array.from({ length: 120 }, (_, index) => ({
      value: index + 1,
      label: `Country ${String(index + 1).padStart(3, '0')}`,
    }));
    let body: unknown;
    server.use(
      mock.get(api('subscribers/9'), () =>
        HttpResponse.json({ data: { id: 9, name: 'Meera Traders', email: 'meera@example.com', country_id: 117 } }),
      ),
      mock.get(api('countries/options'), ({ request }) => {
        const query = new URL(request.url).searchParams;
        const id = query.get('id');
        if (id) {
          lookups.push(id);
          return HttpResponse.json({ data: countries.filter((option) => String(option.value) === id) });
        }
        const q = query.get('q') ?? '';
        searches.push(q);
        return HttpResponse.json({
          data: countries.filter((option) => option.label.toLowerCase().includes(q.toLowerCase())).slice(0, 50),
        });
      }),
      mock.put(api('subscribers/9'), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ data: { id: 9 }, message: 'Subscriber updated.' });
      }),
    );
    const user = userEvent.setup();
    renderScreen(FormScreen, {
      resource: subscribers,
      route: routeOf(subscribers, 'edit', 'form'),
      at: '/subscriber-management/subscribers/9/edit',
    });
    // The current value is beyond the first 50 options: its label comes from options?id=.
    const country = await screen.findByRole('combobox', { name: /^Country/ });
    await waitFor(() => expect(country).toHaveValue('Country 117'));
    expect(lookups).toEqual(['117']);
    expect(country).toHaveAttribute('aria-expanded', 'false');

    await user.clear(country);
    await user.type(country, '08');
    expect(country).toHaveAttribute('aria-expanded', 'true');
    const listbox = screen.getByRole('listbox');
    await waitFor(() =>
      expect(
        within(listbox)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual([
        'Country 008',
        'Country 080',
        'Country 081',
        'Country 082',
        'Country 083',
        'Country 084',
        'Country 085',
        'Country 086',
        'Country 087',
        'Country 088',
        'Country 089',
        'Country 108',
      ]),
    );
    // One search for what was typed, not one per key.
    expect(searches.filter((q) => q !== '')).toEqual(['08']);
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(country).toHaveAttribute(
      'aria-activedescendant',
      within(listbox).getByRole('option', { name: 'Country 080' }).id,
    );
    await user.keyboard('{Enter}');
    expect(country).toHaveValue('Country 080');
    expect(country).toHaveAttribute('aria-expanded', 'false');

    // Escape gives up what was typed and keeps the value.
    await user.type(country, 'zzz');
    await user.keyboard('{Escape}');
    expect(country).toHaveValue('Country 080');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(body).toEqual({ name: 'Meera Traders', email: 'meera@example.com', country_id: 80 }));
    expect(lookups).toEqual(['117']);
  });

  it("the manifest's business rules judge the form as the server does: a percent voucher is at most 100; a subscriber's status and plan are not asked", async () => {
    const manifestVouchers = voucherArea.resources.find((resource) => resource.module === 'VOUCHER')!;
    const manifestSubscribers = subscriberArea.resources.find((resource) => resource.module === 'SUBSCRIBERS')!;
    signInWith({ VOUCHER: ['view', 'add'], SUBSCRIBERS: ['view', 'add'] });
    let posts = 0;
    server.use(
      mock.post(api('vouchers'), () => {
        posts += 1;
        return HttpResponse.json({ data: { id: 1 } }, { status: 201 });
      }),
      mock.get(api('plans/options'), () => HttpResponse.json({ data: [] })),
      mock.get(api('countries/options'), () => HttpResponse.json({ data: [] })),
      mock.get(api('executives/options'), () => HttpResponse.json({ data: [] })),
    );
    const user = userEvent.setup();
    const { unmount } = renderScreen(FormScreen, {
      resource: manifestVouchers,
      route: routeOf(manifestVouchers, 'add', 'form'),
    });
    // People's words, not codes: the options read as the manifest labels them.
    expect(
      within(screen.getByLabelText(/^Discount type/))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['', 'Percent', 'Flat amount']);
    await user.selectOptions(screen.getByLabelText(/^Discount type/), 'Percent');
    await user.type(screen.getByLabelText(/^Discount value/), '150');
    await user.click(screen.getByRole('button', { name: 'Create voucher' }));
    expect(await screen.findByText('* Max value is 100 when Discount type is percent.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Discount value/)).toHaveAccessibleDescription(
      /^\* Max value is 100 when Discount type is percent\./,
    );
    await user.selectOptions(screen.getByLabelText(/^Discount type/), 'Flat amount');
    await waitFor(() =>
      expect(screen.queryByText('* Max value is 100 when Discount type is percent.')).not.toBeInTheDocument(),
    );
    expect(posts).toBe(0);
    unmount();

    // A subscriber's status and plan are kept by the server from the subscriptions: the form does not ask for them.
    renderScreen(FormScreen, { resource: manifestSubscribers, route: routeOf(manifestSubscribers, 'add', 'form') });
    expect(await screen.findByLabelText(/^Name/)).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Status/)).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/^Current plan/)).not.toBeInTheDocument();
  });
});
