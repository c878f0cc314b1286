import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderConsole, signInAs } from './consoleApp.tsx';
import { callApi, startRealApi, type RealApi } from './realApi.ts';

let api: RealApi;
beforeAll(async () => {
  api = await startRealApi();
});
afterAll(async () => {
  await api?.close();
});

const errorOf = (field: HTMLElement) => document.getElementById(`${field.id}__error`);

describe('a create form against the real API', () => {
  it('FORM-12 a duplicate unique field answered 400 shows on that field with "* ", and what was typed stays', async () => {
    const admin = await signInAs('Super Admin');
    const before = await callApi(admin.access, 'GET', 'countries?_page_size=1');
    const user = userEvent.setup();
    const { history } = renderConsole('/masters/countries/add');
    const name = await screen.findByLabelText(/^Name/, {}, { timeout: 10_000 });
    await user.type(name, 'Indica');
    // IN belongs to India in the demo data: the database's unique key refuses it.
    await user.type(screen.getByLabelText(/^ISO alpha-2/), 'IN');
    await user.type(screen.getByLabelText(/^ISO alpha-3/), 'IDC');
    await user.selectOptions(screen.getByLabelText(/^Region/), screen.getByRole('option', { name: /^Asia$/i }));
    await user.type(screen.getByLabelText(/^Currency code/), 'INR');
    await user.click(screen.getByRole('button', { name: /^Create/ }));

    const iso2 = screen.getByLabelText(/^ISO alpha-2/);
    await waitFor(() => expect(errorOf(iso2)).toHaveTextContent(/^\* This value is already in use\.$/), {
      timeout: 10_000,
    });
    expect(iso2).toHaveAttribute('aria-invalid', 'true');
    expect(errorOf(screen.getByLabelText(/^Name/))).toBeNull();
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Indica');
    expect(iso2).toHaveValue('IN');
    expect(screen.getByLabelText(/^ISO alpha-3/)).toHaveValue('IDC');
    expect(screen.getByLabelText(/^Currency code/)).toHaveValue('INR');
    expect(history.location.pathname).toBe('/masters/countries/add');
    // The "Error" toast says what the server said (ERR-01, ERR-03), naming the field by its title.
    expect(await screen.findByText('ISO alpha-2: This value is already in use.')).toBeInTheDocument();
    expect((await callApi(admin.access, 'GET', 'countries?_page_size=1')).body.meta.total).toBe(before.body.meta.total);
  });

  it('a clash on a composite unique key shows on its last field, saying what the value is unique within', async () => {
    const admin = await signInAs('Super Admin');
    const type = await callApi(admin.access, 'POST', 'lookup-types', { code: 'shipment_mode', name: 'Shipment mode' });
    expect(
      (await callApi(admin.access, 'POST', 'lookups', { lookup_type_id: type.body.data.id, code: 'sea', label: 'Sea' }))
        .status,
    ).toBe(201);
    const user = userEvent.setup();
    renderConsole('/masters/lookups/add');
    const lookupType = await screen.findByRole('combobox', { name: /^Lookup type/ }, { timeout: 10_000 });
    await user.type(lookupType, 'shipm');
    await user.click(await screen.findByRole('option', { name: 'Shipment mode' }, { timeout: 10_000 }));
    await user.type(screen.getByLabelText(/^Code/), 'sea');
    await user.type(screen.getByLabelText(/^Label/), 'Sea freight');
    await user.click(screen.getByRole('button', { name: /^Create/ }));

    const code = screen.getByLabelText(/^Code/);
    await waitFor(
      () => expect(errorOf(code)).toHaveTextContent(/^\* This value is already in use for this Lookup type\.$/),
      { timeout: 10_000 },
    );
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(errorOf(screen.getByLabelText(/^Lookup type/))).toBeNull();
    expect(await screen.findByText('Code: This value is already in use for this Lookup type.')).toBeInTheDocument();
    expect(code).toHaveValue('sea');
    expect((await callApi(admin.access, 'GET', `lookups?lookup_type_id=${type.body.data.id}`)).body.meta.total).toBe(1);
  });
});

describe('an edit form against the real API when someone else saved the record meanwhile', () => {
  it('the save shows one conflict message; Reload keeps what was typed, takes their change to the other fields and names it; saving again keeps both', async () => {
    const admin = await signInAs('Super Admin');
    const opened = (await callApi(admin.access, 'GET', 'vouchers/2')).body.data;
    const user = userEvent.setup();
    const { history } = renderConsole('/voucher-management/vouchers/2/edit');
    const value = await screen.findByLabelText(/^Discount value/, {}, { timeout: 10_000 });
    await user.clear(value);
    await user.type(value, '42');

    // Another administrator saves a new description while this form is open.
    const editable = [
      'code',
      'description',
      'discount_type',
      'discount_value',
      'max_discount',
      'valid_from',
      'valid_to',
      'usage_limit',
      'plan_id',
    ];
    const theirs = Object.fromEntries(
      editable.filter((name) => opened[name] !== null).map((name) => [name, opened[name]]),
    );
    const other = await callApi(
      admin.access,
      'PUT',
      'vouchers/2',
      { ...theirs, description: 'Changed elsewhere' },
      { 'if-match': `"${opened.version}"` },
    );
    expect(other.status).toBe(200);

    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const conflict = await screen.findByText(
      /^This voucher was changed by someone else since you opened it, so your changes were not saved\./,
      {},
      { timeout: 10_000 },
    );
    // Said once, in the form: no "Error" toast repeats it.
    expect(screen.getAllByText(/changed by someone else since you opened it/)).toHaveLength(1);
    expect(screen.getByLabelText(/^Discount value/)).toHaveValue(42);
    expect(history.location.pathname).toBe('/voucher-management/vouchers/2/edit');

    await user.click(within(conflict.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Reload' }));
    // Their description is taken (this user left it alone), so saving does not undo it; the typed value stays.
    expect(
      await screen.findByText('Changed by someone else, now shown: Description.', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText(/^Discount value/)).toHaveValue(42);
    expect(screen.getByLabelText(/^Description/)).toHaveValue('Changed elsewhere');

    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(history.location.pathname).toBe('/voucher-management/vouchers'), { timeout: 10_000 });
    const saved = (await callApi(admin.access, 'GET', 'vouchers/2')).body.data;
    expect(saved).toMatchObject({ discount_value: 42, description: 'Changed elsewhere', version: opened.version + 2 });
  });
});
