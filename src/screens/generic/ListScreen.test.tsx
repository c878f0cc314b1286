import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ActionName } from '../../generated/permissions.ts';
import { ToastHost } from '../../shell/ToastHost.tsx';
import { vouchers } from '../testing/fixtures.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../testing/renderScreen.tsx';
import ListScreen from './ListScreen.tsx';

const route = routeOf(vouchers, 'view', 'list');

const rows = Array.from({ length: 45 }, (_, index) => ({
  id: index + 1,
  code: `CODE${String(index + 1).padStart(2, '0')}`,
  discount_type: 'percent',
  discount_value: 10,
  valid_to: '2026-12-31',
  used_count: 0,
  is_active: index % 2 === 0,
  version: index + 3,
}));

/** The list endpoint as the API answers it, recording each query. */
function serveList(queries: URLSearchParams[] = []) {
  server.use(
    mock.get(api('vouchers'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      queries.push(query);
      const page = Number(query.get('_page'));
      const size = Number(query.get('_page_size'));
      const q = query.get('q') ?? '';
      const matching = rows.filter((row) => row.code.includes(q.toUpperCase()));
      return HttpResponse.json({
        data: matching.slice((page - 1) * size, page * size),
        meta: { total: matching.length, page, page_size: size },
      });
    }),
  );
  return queries;
}

/** Delete, from the row's actions menu. */
async function deleteFromMenu(user: ReturnType<typeof userEvent.setup>, label: string) {
  await user.click(await screen.findByRole('button', { name: `Actions for ${label}` }));
  await user.click(
    within(screen.getByRole('menu', { name: `Actions for ${label}` })).getByRole('menuitem', { name: 'Delete' }),
  );
}

const ALL: ActionName[] = ['view', 'add', 'edit', 'delete', 'ACTIVE_INACTIVE', 'download', 'view_detail'];

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('ListScreen', () => {
  it('pages on the server with a page-size choice, and keeps the page in the URL', async () => {
    signInWith({ VOUCHER: ALL });
    const queries = serveList();
    const user = userEvent.setup();
    const { history } = renderScreen(ListScreen, { resource: vouchers, route });
    expect(await screen.findByRole('cell', { name: 'CODE01' })).toBeInTheDocument();
    expect(screen.getByText(/1–20 of 45/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByRole('cell', { name: 'CODE21' })).toBeInTheDocument();
    expect(history.location.search).toBe('?page=2');
    expect(queries.at(-1)?.get('_page')).toBe('2');
    await user.selectOptions(screen.getByLabelText('Rows per page'), '50');
    expect(await screen.findByRole('cell', { name: 'CODE45' })).toBeInTheDocument();
    expect(history.location.search).toBe('?size=50');
  });

  it('sorts by a column header, descending on the second click, with aria-sort and the URL following', async () => {
    signInWith({ VOUCHER: ALL });
    const queries = serveList();
    const user = userEvent.setup();
    const { history } = renderScreen(ListScreen, { resource: vouchers, route });
    await screen.findByRole('cell', { name: 'CODE01' });
    await user.click(screen.getByRole('button', { name: /Discount value/ }));
    await waitFor(() => expect(queries.at(-1)?.get('_sort')).toBe('discount_value'));
    expect(queries.at(-1)?.get('_order')).toBe('asc');
    expect(screen.getByRole('columnheader', { name: /Discount value/ })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(screen.getByRole('button', { name: /Discount value/ }));
    await waitFor(() => expect(queries.at(-1)?.get('_order')).toBe('desc'));
    expect(history.location.search).toBe('?sort=-discount_value');
  });

  it('searches after typing pauses, with the search in the URL, and restores it from a shared link', async () => {
    signInWith({ VOUCHER: ALL });
    const queries = serveList();
    const user = userEvent.setup();
    const { history, unmount } = renderScreen(ListScreen, { resource: vouchers, route });
    await screen.findByRole('cell', { name: 'CODE01' });
    await user.type(screen.getByLabelText('Search vouchers'), 'code4');
    await waitFor(() => expect(history.location.search).toBe('?q=code4'));
    expect(await screen.findByRole('cell', { name: 'CODE45' })).toBeInTheDocument();
    expect(screen.queryByRole('cell', { name: 'CODE01' })).not.toBeInTheDocument();
    expect(queries.filter((query) => query.has('q'))).toHaveLength(1);
    unmount();
    renderScreen(ListScreen, { resource: vouchers, route, at: `${route.path}?q=code4&page=1` });
    expect(await screen.findByRole('cell', { name: 'CODE41' })).toBeInTheDocument();
    expect(screen.getByLabelText('Search vouchers')).toHaveValue('code4');
  });

  it('shows only the row actions the permissions grant', async () => {
    signInWith({ VOUCHER: ['view', 'edit'] });
    serveList();
    renderScreen(ListScreen, { resource: vouchers, route });
    await screen.findByRole('cell', { name: 'CODE01' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Actions for CODE01' }));
    const menu = screen.getByRole('menu', { name: 'Actions for CODE01' });
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Edit']);
    expect(within(menu).getByRole('menuitem', { name: 'Edit' })).toHaveAttribute(
      'href',
      '/voucher-management/vouchers/1/edit',
    );
    expect(screen.queryByRole('switch', { name: 'Active: CODE01' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Add voucher/ })).not.toBeInTheDocument();
    // No download, no import, and no Trash without delete (restoring needs it): nothing for a "More" menu.
    expect(screen.queryByRole('button', { name: 'More actions' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Select CODE01' })).not.toBeInTheDocument();
  });

  it('offers row selection only with a bulk action to take: on the selection, or setting a field on all matching', async () => {
    signInWith({ VOUCHER: ['view', 'edit', 'download'] });
    serveList();
    const user = userEvent.setup();
    const { unmount } = renderScreen(ListScreen, {
      resource: { ...vouchers, list: { ...vouchers.list!, bulkEdit: ['discount_type'] } },
      route,
    });
    await user.click(await screen.findByRole('checkbox', { name: 'Select CODE01' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(within(bar).queryByRole('button', { name: /selected$/ })).not.toBeInTheDocument();
    await user.click(within(bar).getByRole('button', { name: 'Select all 45 matching' }));
    expect(within(bar).getByRole('button', { name: 'Set a field on all' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'More actions' }));
    expect(screen.queryByRole('link', { name: 'Trash' })).not.toBeInTheDocument();
    unmount();

    renderScreen(ListScreen, { resource: vouchers, route });
    await screen.findByRole('cell', { name: 'CODE01' });
    expect(screen.queryByRole('checkbox', { name: 'Select CODE01' })).not.toBeInTheDocument();
  });

  it('flips the active toggle at once and flips it back when the server refuses', async () => {
    signInWith({ VOUCHER: ALL });
    serveList();
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    server.use(
      mock.patch(api('vouchers/1/status'), async () => {
        await answered;
        return HttpResponse.json({ message: 'Not allowed now' }, { status: 409 });
      }),
    );
    const user = userEvent.setup();
    renderScreen(ListScreen, { resource: vouchers, route });
    const toggle = await screen.findByRole('switch', { name: 'Active: CODE01' });
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    await user.click(toggle);
    await user.click(
      within(screen.getByRole('dialog', { name: 'Deactivate voucher?' })).getByRole('button', { name: 'Deactivate' }),
    );
    expect(screen.getByRole('switch', { name: 'Active: CODE01' })).toHaveAttribute('aria-checked', 'false');
    release();
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Active: CODE01' })).toHaveAttribute('aria-checked', 'true'),
    );
  });

  it('deletes a row only after confirmation in a dialog', async () => {
    signInWith({ VOUCHER: ALL });
    serveList();
    const deleted: string[] = [];
    server.use(
      mock.delete(api('vouchers/:id'), ({ params, request }) => {
        deleted.push(`${String(params.id)} at ${request.headers.get('if-match')}`);
        return HttpResponse.json({ message: 'Voucher deleted.' });
      }),
    );
    const user = userEvent.setup();
    renderScreen(ListScreen, { resource: vouchers, route });
    await deleteFromMenu(user, 'CODE01');
    const dialog = screen.getByRole('dialog', { name: 'Delete voucher?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(deleted).toEqual([]);
    await deleteFromMenu(user, 'CODE01');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deleted).toEqual(['1 at "3"']));
  });

  it('a row changed by someone else since the list loaded: the toggle says so once and the list loads again', async () => {
    render(<ToastHost />);
    signInWith({ VOUCHER: ALL });
    const queries = serveList();
    const sent: Array<string | null> = [];
    server.use(
      mock.patch(api('vouchers/3/status'), ({ request }) => {
        sent.push(request.headers.get('if-match'));
        return HttpResponse.json(
          { message: 'This voucher was changed by someone else since you opened it.' },
          { status: 412 },
        );
      }),
    );
    const user = userEvent.setup();
    renderScreen(ListScreen, { resource: vouchers, route });
    await user.click(await screen.findByRole('switch', { name: 'Active: CODE03' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Deactivate voucher?' })).getByRole('button', { name: 'Deactivate' }),
    );
    expect(
      await screen.findByText(
        /^This voucher was changed by someone else since the list was loaded\. The list now shows the latest version/,
      ),
    ).toBeInTheDocument();
    expect(sent).toEqual(['"5"']);
    expect(screen.queryByText('This voucher was changed by someone else since you opened it.')).toBeNull();
    await waitFor(() => expect(queries.length).toBe(2));
    expect(screen.getByRole('switch', { name: 'Active: CODE03' })).toHaveAttribute('aria-checked', 'true');
  });

  it('applies bulk actions to the selected rows', async () => {
    signInWith({ VOUCHER: ALL });
    serveList();
    let body: unknown;
    server.use(
      mock.patch(api('vouchers/status'), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ message: 'Updated.' });
      }),
    );
    const user = userEvent.setup();
    renderScreen(ListScreen, { resource: vouchers, route });
    await user.click(await screen.findByRole('checkbox', { name: 'Select CODE01' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select CODE02' }));
    expect(screen.getByText('2 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Deactivate selected' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Deactivate 2 vouchers?' })).getByRole('button', {
        name: 'Deactivate',
      }),
    );
    await waitFor(() => expect(body).toEqual({ ids: [1, 2], is_active: false }));
  });

  it('asks before deactivating, naming the record or how many, and sends nothing when cancelled; activating does not ask', async () => {
    signInWith({ VOUCHER: ALL });
    serveList();
    const sent: unknown[] = [];
    server.use(
      mock.patch(api('vouchers/:id/status'), async ({ request, params }) => {
        sent.push({ id: params.id, ...((await request.json()) as object) });
        return HttpResponse.json({ message: 'Updated.' });
      }),
    );
    const user = userEvent.setup();
    renderScreen(ListScreen, { resource: vouchers, route });
    await user.click(await screen.findByRole('switch', { name: 'Active: CODE01' }));
    const single = screen.getByRole('dialog', { name: 'Deactivate voucher?' });
    expect(single).toHaveTextContent('CODE01 will be deactivated.');
    expect(within(single).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('switch', { name: 'Active: CODE01' })).toHaveAttribute('aria-checked', 'true');

    await user.click(screen.getByRole('checkbox', { name: 'Select CODE01' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select CODE03' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select CODE05' }));
    await user.click(screen.getByRole('button', { name: 'Deactivate selected' }));
    const bulk = screen.getByRole('dialog', { name: 'Deactivate 3 vouchers?' });
    expect(bulk).toHaveTextContent('The 3 selected vouchers will be deactivated.');
    await user.click(within(bulk).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('3 selected')).toBeInTheDocument();

    await user.click(screen.getByRole('switch', { name: 'Active: CODE02' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(sent).toEqual([{ id: '2', is_active: true }]));
  });

  it('downloads the CSV export of the current search, sort and visible columns', async () => {
    signInWith({ VOUCHER: ALL });
    serveList();
    let exportQuery: URLSearchParams | undefined;
    server.use(
      mock.get(api('vouchers/export'), ({ request }) => {
        exportQuery = new URL(request.url).searchParams;
        return new HttpResponse('code\nCODE41\n', { headers: { 'Content-Type': 'text/csv' } });
      }),
    );
    URL.createObjectURL = () => 'blob:csv';
    URL.revokeObjectURL = () => undefined;
    const user = userEvent.setup();
    renderScreen(ListScreen, { resource: vouchers, route, at: `${route.path}?q=code4` });
    await user.click(await screen.findByRole('button', { name: 'More actions' }));
    await user.click(await screen.findByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(exportQuery?.get('_columns')).toBe(vouchers.list!.columns.join(',')));
    expect(exportQuery?.get('q')).toBe('code4');
    expect(exportQuery?.has('_page')).toBe(false);
  });

  it('links to the trash where deletes go there, and its delete confirmation says so; where they do not, a delete cannot be undone', async () => {
    signInWith({ VOUCHER: ALL });
    serveList();
    const user = userEvent.setup();
    const { unmount } = renderScreen(ListScreen, { resource: vouchers, route });
    await user.click(await screen.findByRole('button', { name: 'More actions' }));
    expect(await screen.findByRole('link', { name: 'Trash' })).toHaveAttribute(
      'href',
      '/voucher-management/vouchers/trash',
    );
    await deleteFromMenu(user, 'CODE01');
    expect(screen.getByRole('dialog', { name: 'Delete voucher?' })).toHaveTextContent(
      'CODE01 will be moved to the trash. You can restore it from the trash.',
    );
    unmount();

    renderScreen(ListScreen, { resource: { ...vouchers, entity: { ...vouchers.entity!, softDelete: false } }, route });
    await deleteFromMenu(user, 'CODE01');
    expect(screen.getByRole('dialog', { name: 'Delete voucher?' })).toHaveTextContent(
      'CODE01 will be deleted. This cannot be undone.',
    );
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'More actions' }));
    expect(await screen.findByRole('button', { name: 'Download CSV' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Trash' })).not.toBeInTheDocument();
  });

  it('shows an error with a retry that loads the list again, and an empty state', async () => {
    signInWith({ VOUCHER: ALL });
    server.use(
      mock.get(api('vouchers'), () => HttpResponse.json({ message: 'Down' }, { status: 500 }), { once: true }),
    );
    const user = userEvent.setup();
    renderScreen(ListScreen, { resource: vouchers, route });
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load vouchers.');
    server.use(
      mock.get(api('vouchers'), () => HttpResponse.json({ data: [], meta: { total: 0, page: 1, page_size: 20 } })),
    );
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No vouchers yet.')).toBeInTheDocument();
  });
});
