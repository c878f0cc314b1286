import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntryAnswer } from '../../../contract/audit.ts';
import { customResource } from '../testing/fixtures.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../testing/renderScreen.tsx';
import AuditLogScreen from './AuditLogScreen.tsx';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const resource = customResource('AUDIT_LOG', 'audit-log', ['view', 'download'], '/user-management/audit-log');
const route = routeOf(resource, 'view', 'audit-log');

const voucherUpdate: AuditEntryAnswer = {
  id: 41,
  at: '2026-11-20T09:30:00Z',
  user_id: 1,
  user_email: 'admin@example.com',
  api_token: null,
  client_address: '203.0.113.7',
  request_id: 'req-7f3a',
  module: 'VOUCHER',
  record_id: 9,
  action: 'update',
  changes: { discount_type: { before: 'percent', after: 'flat' }, discount_value: { before: 15, after: 20 } },
  details: {},
};
const signIn: AuditEntryAnswer = {
  ...voucherUpdate,
  id: 40,
  module: 'AUTH',
  record_id: null,
  action: 'login',
  changes: {},
  client_address: '198.51.100.2',
  request_id: 'req-1',
};
const topUp: AuditEntryAnswer = {
  ...voucherUpdate,
  id: 39,
  module: 'SUBSCRIBERS',
  record_id: 5,
  action: 'top_up',
  changes: {},
  details: { points: 250, amount: 990, payment_reference: 'NEFT-1' },
};

/** GET audit-log as the API answers it, recording each query; the user filter's search of users. */
function serveAuditLog(entries: AuditEntryAnswer[] = [voucherUpdate, signIn, topUp]) {
  const queries: URLSearchParams[] = [];
  server.use(
    mock.get(api('audit-log'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      queries.push(query);
      const page = Number(query.get('_page'));
      const pageSize = Number(query.get('_page_size'));
      return HttpResponse.json({ data: entries, meta: { total: entries.length, page, page_size: pageSize } });
    }),
    mock.get(api('users/options'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      const ravi = { value: 7, label: 'ravi@example.com' };
      return HttpResponse.json({
        data: query.get('id') === '7' || 'ravi@example.com'.includes(query.get('q') ?? '') ? [ravi] : [],
      });
    }),
  );
  return queries;
}

describe('AuditLogScreen', () => {
  it('lists entries as people read them, links the record the user may open, and expands into the changes, client address and request id', async () => {
    signInWith({ AUDIT_LOG: ['view'], VOUCHER: ['view', 'view_detail'] });
    serveAuditLog();
    const user = userEvent.setup();
    renderScreen(AuditLogScreen, { resource, route });
    const update = (await screen.findByRole('cell', { name: 'Updated' })).closest('tr')!;
    expect(update).toHaveTextContent('admin@example.com');
    expect(within(update).getByRole('cell', { name: 'Vouchers' })).toBeInTheDocument();
    expect(within(update).getByRole('link', { name: 'Open record #9 of Vouchers' })).toHaveAttribute(
      'href',
      '/voucher-management/vouchers/9',
    );
    expect(update).toHaveTextContent('Discount type, Discount value');
    // An entry that changed no field says what happened, as the record's History does.
    const topped = screen.getByText(/^250 points added for/).closest('tr')!;
    expect(topped).toHaveTextContent('250 points added for ₹990.00, payment reference NEFT-1.');
    expect(topped).not.toHaveTextContent('No field changed');
    const login = screen.getByRole('cell', { name: 'Signed in' }).closest('tr')!;
    expect(within(login).queryByRole('link')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Download CSV' })).not.toBeInTheDocument();

    expect(screen.queryByText('203.0.113.7')).not.toBeInTheDocument();
    const toggle = within(update).getByRole('button', { name: /Show details/ });
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const details = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    const typeRow = within(details).getByRole('rowheader', { name: 'Discount type' }).closest('tr')!;
    // The labels come from the module's description, which loads with its area.
    await waitFor(() =>
      expect([...typeRow.cells].map((cell) => cell.textContent)).toEqual(['Discount type', 'Percent', 'Flat amount']),
    );
    expect(details).toHaveTextContent('Client address203.0.113.7');
    expect(details).toHaveTextContent('Request IDreq-7f3a');
  });

  it('names the API token a change was made with, beside the user who made the token', async () => {
    signInWith({ AUDIT_LOG: ['view'] });
    serveAuditLog([{ ...voucherUpdate, api_token: 'Billing system' }]);
    renderScreen(AuditLogScreen, { resource, route });
    const update = (await screen.findByRole('cell', { name: 'Updated' })).closest('tr')!;
    expect(within(update).getByRole('cell', { name: 'API token "Billing system" of admin@example.com' })).toBeVisible();
  });

  it('does not link a record its module shows the user no detail of', async () => {
    signInWith({ AUDIT_LOG: ['view'], VOUCHER: ['view'] });
    serveAuditLog([voucherUpdate]);
    renderScreen(AuditLogScreen, { resource, route });
    const update = (await screen.findByRole('cell', { name: 'Updated' })).closest('tr')!;
    expect(within(update).queryByRole('link')).not.toBeInTheDocument();
    expect(within(update).getByRole('cell', { name: '#9' })).toBeInTheDocument();
  });

  it('puts every filter in the URL and the request: user (searched on the server), module, action, record and dates', async () => {
    signInWith({ AUDIT_LOG: ['view'] });
    const queries = serveAuditLog();
    const user = userEvent.setup();
    const { history } = renderScreen(AuditLogScreen, { resource, route });
    await screen.findByRole('cell', { name: 'Updated' });
    const filters = screen.getByRole('group', { name: 'Filters' });

    await user.selectOptions(within(filters).getByLabelText('Module'), 'Vouchers');
    await waitFor(() => expect(queries.at(-1)?.get('module')).toBe('VOUCHER'));
    await user.selectOptions(within(filters).getByLabelText('Action'), 'Restored a version');
    await waitFor(() => expect(queries.at(-1)?.get('action')).toBe('restore_version'));
    await user.type(within(filters).getByLabelText('Record ID'), '9{Enter}');
    await waitFor(() => expect(queries.at(-1)?.get('record_id')).toBe('9'));
    await user.type(within(filters).getByRole('combobox', { name: 'User' }), 'ravi');
    await user.click(await screen.findByRole('option', { name: 'ravi@example.com' }));
    await waitFor(() => expect(queries.at(-1)?.get('user_id')).toBe('7'));
    await user.type(within(filters).getByLabelText('From'), '2026-11-01');
    await waitFor(() => expect(queries.at(-1)?.get('from')).toBe('2026-11-01'));

    const url = new URLSearchParams(history.location.search);
    expect(Object.fromEntries(url)).toEqual({
      user_id: '7',
      module: 'VOUCHER',
      action: 'restore_version',
      record_id: '9',
      from: '2026-11-01',
    });
    expect(queries.at(-1)?.get('_page')).toBe('1');
  });

  it('opens with the filters of a shared link, and downloads the CSV of exactly those filters', async () => {
    signInWith({ AUDIT_LOG: ['view', 'download'] });
    const queries = serveAuditLog();
    let exportQuery: URLSearchParams | undefined;
    server.use(
      mock.get(api('audit-log/export'), ({ request }) => {
        exportQuery = new URL(request.url).searchParams;
        return new HttpResponse('at,user\n', { headers: { 'Content-Type': 'text/csv' } });
      }),
    );
    URL.createObjectURL = () => 'blob:csv';
    URL.revokeObjectURL = () => undefined;
    const user = userEvent.setup();
    renderScreen(AuditLogScreen, { resource, route, at: `${route.path}?module=VOUCHER&action=update&page=2` });
    await screen.findByRole('cell', { name: 'Updated' });
    expect(queries[0]?.get('module')).toBe('VOUCHER');
    expect(queries[0]?.get('_page')).toBe('2');
    expect(screen.getByLabelText('Module')).toHaveValue('VOUCHER');
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(exportQuery).toBeDefined());
    expect(Object.fromEntries(exportQuery!)).toEqual({ module: 'VOUCHER', action: 'update' });
  });
});
