import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { vouchers } from '../testing/fixtures.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../testing/renderScreen.tsx';
import ImportScreen from './ImportScreen.tsx';

const resource = {
  ...vouchers,
  actions: [...vouchers.actions, 'import' as const],
  routes: { ...vouchers.routes, import: '/voucher-management/vouchers/import' },
};
const route = routeOf(resource, 'import', 'import');

const UPLOADED = {
  id: 7,
  file_name: 'vouchers.csv',
  headings: ['Code', 'Kind', 'Discount value'],
  rows: 3,
  mapping: { Code: 'code', Kind: null, 'Discount value': 'discount_value' },
  fields: [
    { name: 'code', title: 'Code', required: true, key: true },
    { name: 'discount_type', title: 'Discount type', required: false, key: false },
    { name: 'discount_value', title: 'Discount value', required: true, key: false },
  ],
};

const DRY_RUN = {
  counts: { create: 1, update: 1, unchanged: 0, error: 1 },
  rows: [
    { line: 2, outcome: 'create', cells: ['NEW1', 'flat', '10'], errors: {}, changed: [] },
    { line: 3, outcome: 'update', cells: ['OLD1', 'flat', '20'], errors: {}, changed: ['discount_value'] },
    {
      line: 4,
      outcome: 'error',
      cells: ['bad', 'flat', '0'],
      errors: { code: 'Use 4 to 20 capital letters or digits.', discount_value: 'Discount must be at least 1.' },
      changed: [],
    },
  ],
};

const ndjson = (...lines: object[]) =>
  new HttpResponse(lines.map((line) => JSON.stringify(line)).join('\n') + '\n', {
    headers: { 'content-type': 'application/x-ndjson' },
  });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('ImportScreen', () => {
  it('reads the file, lets the mapping be changed, shows the dry run with each error on its cell, then applies it', async () => {
    signInWith({ VOUCHER: ['view', 'import'] });
    const bodies: Record<string, unknown> = {};
    let uploadedName: string | null = null;
    server.use(
      mock.post(api('vouchers/import'), async ({ request }) => {
        const form = await request.formData();
        uploadedName = (form.get('file') as File).name;
        return HttpResponse.json({ data: UPLOADED, message: '3 row(s) read.' }, { status: 201 });
      }),
      mock.post(api('vouchers/import/7/dry-run'), async ({ request }) => {
        bodies.dryRun = await request.json();
        return ndjson(
          { progress: { done: 0, total: 3 } },
          { data: DRY_RUN, message: '1 record(s) would be created, 1 updated, 0 unchanged; 1 row(s) refused.' },
        );
      }),
      mock.post(api('vouchers/import/7/apply'), async ({ request }) => {
        bodies.apply = await request.json();
        return ndjson(
          { progress: { done: 0, total: 3 } },
          {
            data: { counts: DRY_RUN.counts },
            message: '1 record(s) were created, 1 updated, 0 unchanged; 1 row(s) refused.',
          },
        );
      }),
    );
    const user = userEvent.setup();
    renderScreen(ImportScreen, { resource, route });
    expect(await screen.findByRole('heading', { name: 'Import vouchers' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Read the file' })).toBeDisabled();
    await user.upload(
      screen.getByLabelText('File'),
      new File(['Code,Kind,Discount value\n'], 'vouchers.csv', { type: 'text/csv' }),
    );
    await user.click(screen.getByRole('button', { name: 'Read the file' }));
    const kind = await screen.findByRole('combobox', { name: 'Field for column Kind' });
    expect(uploadedName).not.toBeNull();
    expect(screen.getByRole('combobox', { name: 'Field for column Code' })).toHaveValue('code');
    expect(kind).toHaveValue('');
    await user.selectOptions(kind, 'discount_type');

    await user.click(screen.getByRole('button', { name: 'Dry run' }));
    const counts = await screen.findByRole('list', { name: 'Dry run' });
    expect(counts).toHaveTextContent('1 to create');
    expect(counts).toHaveTextContent('1 in error');
    expect(bodies.dryRun).toEqual({
      mapping: { Code: 'code', Kind: 'discount_type', 'Discount value': 'discount_value' },
    });
    const refused = screen.getByRole('row', { name: /^4 In error/ });
    const cells = within(refused).getAllByRole('cell');
    expect(cells[1]).toHaveTextContent('badUse 4 to 20 capital letters or digits.');
    expect(cells[3]).toHaveTextContent('0Discount must be at least 1.');
    expect(screen.getByRole('button', { name: 'Download refused rows' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Apply 2 change(s)' }));
    expect(await screen.findByText(/1 record\(s\) were created/)).toBeInTheDocument();
    expect(bodies.apply).toEqual(bodies.dryRun);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Apply 2 change(s)' })).toBeDisabled());
  });

  it('keeps the mapping as chosen and says what the server refused in it', async () => {
    signInWith({ VOUCHER: ['view', 'import'] });
    server.use(
      mock.post(api('vouchers/import'), () => HttpResponse.json({ data: UPLOADED, message: 'read' }, { status: 201 })),
      mock.post(api('vouchers/import/7/dry-run'), () =>
        HttpResponse.json(
          {
            message: 'Mapping: Map a column to Code: rows are matched to records on it.',
            errors: { mapping: 'Map a column to Code: rows are matched to records on it.' },
          },
          { status: 400 },
        ),
      ),
    );
    const user = userEvent.setup();
    renderScreen(ImportScreen, { resource, route });
    await user.upload(await screen.findByLabelText('File'), new File(['Code\n'], 'vouchers.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Read the file' }));
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Field for column Code' }), '');
    await user.click(screen.getByRole('button', { name: 'Dry run' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Map a column to Code');
    expect(screen.getByRole('combobox', { name: 'Field for column Code' })).toHaveValue('');
  });
});
