import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ActionName } from '../../../generated/permissions.ts';
import { vouchers } from '../../testing/fixtures.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../../testing/renderScreen.tsx';
import ListScreen from '../ListScreen.tsx';

const resource = { ...vouchers, list: { ...vouchers.list!, bulkEdit: ['discount_type'] } };
const route = routeOf(resource, 'view', 'list');
const ALL: ActionName[] = ['view', 'add', 'edit', 'delete', 'ACTIVE_INACTIVE', 'download', 'view_detail'];
const rows = Array.from({ length: 45 }, (_, index) => ({
  id: index + 1,
  code: `CODE${String(index + 1).padStart(2, '0')}`,
  discount_type: 'percent',
  discount_value: 10,
  valid_to: '2026-12-31',
  used_count: 0,
  is_active: true,
  version: 1,
}));

function serveList() {
  server.use(
    mock.get(api('vouchers'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      const page = Number(query.get('_page'));
      const size = Number(query.get('_page_size'));
      return HttpResponse.json({
        data: rows.slice((page - 1) * size, page * size),
        meta: { total: rows.length, page, page_size: size },
      });
    }),
  );
}

/** A long run's answer as the server streams it: progress lines, then the last line. */
const ndjson = (...lines: object[]) =>
  new HttpResponse(lines.map((line) => JSON.stringify(line)).join('\n') + '\n', {
    headers: { 'content-type': 'application/x-ndjson' },
  });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('all matching records, beyond the page', () => {
  it("offers every matching record once the page is selected, states the count, and sends the list's query with it", async () => {
    signInWith({ VOUCHER: ALL });
    serveList();
    const sent: Array<{ query: URLSearchParams; body: unknown }> = [];
    server.use(
      mock.post(api('vouchers/bulk/status'), async ({ request }) => {
        sent.push({ query: new URL(request.url).searchParams, body: await request.json() });
        return ndjson(
          { progress: { done: 0, total: 45 } },
          { data: { matched: 45, changed: 45 }, message: '45 of 45 matching record(s) updated.' },
        );
      }),
    );
    const user = userEvent.setup();
    renderScreen(ListScreen, { resource, route, at: `${route.path}?q=code` });
    await user.click(await screen.findByRole('checkbox', { name: 'Select all rows on this page' }));
    await user.click(screen.getByRole('button', { name: 'Select all 45 matching' }));
    expect(screen.getByRole('region', { name: 'Bulk actions' })).toHaveTextContent(
      'All 45 matching vouchers are selected.',
    );
    await user.click(screen.getByRole('button', { name: 'Deactivate all' }));
    const dialog = screen.getByRole('dialog', { name: 'Deactivate 45 vouchers?' });
    expect(dialog).toHaveTextContent('All 45 vouchers that match the search and filters will be deactivated.');
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate all' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.body).toEqual({ is_active: false, expected_count: 45 });
    expect(sent[0]!.query.get('q')).toBe('code');
    expect(sent[0]!.query.get('_page')).toBeNull();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('region', { name: 'Bulk actions' })).not.toBeInTheDocument();
  });

  it('says so when the count moved since the confirmation, and sets a field the manifest allows', async () => {
    signInWith({ VOUCHER: ALL });
    serveList();
    let setBody: unknown;
    server.use(
      mock.post(api('vouchers/bulk/delete'), () =>
        HttpResponse.json(
          { message: '44 record(s) match now, not the 45 you confirmed. Check the list and confirm again.' },
          { status: 409 },
        ),
      ),
      mock.post(api('vouchers/bulk/set'), async ({ request }) => {
        setBody = await request.json();
        return ndjson({ data: { matched: 45, changed: 45 }, message: '45 of 45 matching record(s) updated.' });
      }),
    );
    const user = userEvent.setup();
    renderScreen(ListScreen, { resource, route });
    await user.click(await screen.findByRole('checkbox', { name: 'Select all rows on this page' }));
    await user.click(screen.getByRole('button', { name: 'Select all 45 matching' }));
    await user.click(screen.getByRole('button', { name: 'Delete all' }));
    const confirmation = screen.getByRole('dialog', { name: 'Delete 45 vouchers?' });
    // Vouchers keep deleted records: the question says where they go, not that it is for good.
    expect(confirmation).toHaveTextContent('They go to the trash, where they can be restored.');
    expect(confirmation).not.toHaveTextContent('cannot be undone');
    await user.click(within(confirmation).getByRole('button', { name: 'Delete all' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('44 record(s) match now');
    expect(screen.getByRole('region', { name: 'Bulk actions' })).toHaveTextContent(
      'All 45 matching vouchers are selected.',
    );

    await user.click(screen.getByRole('button', { name: 'Set a field on all' }));
    const dialog = screen.getByRole('dialog', { name: 'Set a field on 45 vouchers?' });
    expect(within(dialog).getByRole('button', { name: 'Set on all' })).toBeDisabled();
    await user.selectOptions(within(dialog).getByLabelText('New value'), 'flat');
    await user.click(within(dialog).getByRole('button', { name: 'Set on all' }));
    await waitFor(() => expect(setBody).toEqual({ field: 'discount_type', value: 'flat', expected_count: 45 }));
  });
});
