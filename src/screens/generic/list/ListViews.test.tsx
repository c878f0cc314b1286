import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { presetRange } from '../../../../contract/listFilters.ts';
import { vouchers } from '../../testing/fixtures.ts';
import { api, renderScreen, routeOf, server, signInWith, viewsAnswer } from '../../testing/renderScreen.tsx';
import { ToastHost } from '../../../shell/ToastHost.tsx';
import ListScreen from '../ListScreen.tsx';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const ROW = {
  id: 1,
  code: 'FLAT50',
  discount_type: 'flat',
  discount_value: 50,
  valid_to: '2026-12-31',
  used_count: 3,
  is_active: true,
  version: 2,
};

/** Answers the list with ROW; with `plainCode`, a list asked with no discount type answers a row of that code. */
function serveRows(queries: URLSearchParams[] = [], plainCode?: string) {
  server.use(
    mock.get(api('vouchers'), ({ request }) => {
      const params = new URL(request.url).searchParams;
      queries.push(params);
      const row = plainCode && !params.has('discount_type') ? { ...ROW, code: plainCode } : ROW;
      return HttpResponse.json({ data: [row], meta: { total: 1, page: 1, page_size: 20 } });
    }),
  );
  return queries;
}

/** Whether the page has shown `text` at any moment since the call: every commit is looked at. */
function watchFor(text: string): { seen: () => boolean; stop: () => void } {
  let seen = false;
  const observer = new MutationObserver(() => {
    seen ||= document.body.textContent?.includes(text) ?? false;
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  return { seen: () => seen, stop: () => observer.disconnect() };
}

const view = (id: number, name: string, query: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  owner_name: 'Asha Rao',
  mine: true,
  shared_role_id: null,
  shared_role_name: null,
  query,
  dropped: [],
  version: 1,
  ...extra,
});

const openList = (at?: string) =>
  renderScreen(ListScreen, { resource: vouchers, route: routeOf(vouchers, 'view', 'list'), ...(at ? { at } : {}) });

describe('filters as chips, columns and saved views', () => {
  it('filters in force are chips of field, operator and value, each removable, then all of them with "Clear all"', async () => {
    signInWith({ VOUCHER: ['view'] });
    const queries = serveRows();
    const user = userEvent.setup();
    const { history } = openList(
      '/voucher-management/vouchers?discount_type=percent%2Cflat&valid_to_range=last_7_days&is_active=true',
    );
    await screen.findByRole('cell', { name: 'FLAT50' });
    const week = presetRange('last_7_days', new Date());
    expect(queries.at(-1)?.get('discount_type')).toBe('percent,flat');
    expect(queries.at(-1)?.get('valid_to_from')).toBe(week.from);
    const chips = screen.getByRole('list', { name: 'Search and filters in force' });
    const texts = ['Discount type is any of Percent, Flat amount', 'Active is Active', 'Valid to is last 7 days'];
    expect(within(chips).getAllByRole('button', { name: /^Remove filter: / })).toHaveLength(texts.length);
    // Each chip's text opens it for a change; its × removes it.
    for (const text of texts) {
      expect(within(chips).getByRole('button', { name: text })).toHaveAttribute('aria-haspopup', 'dialog');
      expect(within(chips).getByRole('button', { name: `Remove filter: ${text}` })).toBeInTheDocument();
    }
    await user.click(within(chips).getByRole('button', { name: 'Remove filter: Valid to is last 7 days' }));
    await waitFor(() => expect(queries.at(-1)?.has('valid_to_from')).toBe(false));
    expect(history.location.search).toBe('?discount_type=percent%2Cflat&is_active=true');
    expect(within(chips).queryByRole('button', { name: /Valid to/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear all' }));
    await waitFor(() =>
      expect([...(queries.at(-1)?.keys() ?? [])].sort()).toEqual(['_order', '_page', '_page_size', '_sort']),
    );
    expect(history.location.search).toBe('');
    expect(screen.queryByRole('list', { name: 'Search and filters in force' })).not.toBeInTheDocument();
  });

  it('a saved view keeps its filter chips: saved with two, it reopens with both', async () => {
    signInWith({ VOUCHER: ['view'] });
    const queries = serveRows();
    const saved: ReturnType<typeof view>[] = [];
    server.use(
      mock.get(api('views/vouchers'), () => HttpResponse.json(viewsAnswer({ views: saved }))),
      mock.post(api('views/vouchers'), async ({ request }) => {
        const body = (await request.json()) as { name: string; query: Record<string, string> };
        saved.push(view(21, body.name, body.query));
        return HttpResponse.json({ data: saved.at(-1), message: 'View saved.' }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    const { history } = openList();
    await screen.findByRole('cell', { name: 'FLAT50' });
    for (const [field, value] of [
      ['Discount type', 'Flat amount'],
      ['Active', 'Active'],
    ] as const) {
      await user.click(screen.getByRole('button', { name: 'Filter' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add a filter' });
      await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Field' }), field);
      await user.selectOptions(within(dialog).getByRole('combobox', { name: field }), value);
      await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    }
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Search and filters in force' })).getAllByRole('button', {
          name: /^Remove filter: /,
        }),
      ).toHaveLength(2),
    );
    await user.click(await screen.findByRole('button', { name: 'Views' }));
    const panel = await screen.findByRole('region', { name: 'Views' });
    await user.type(within(panel).getByLabelText('Save current as…'), 'Flat and active');
    await user.click(within(panel).getByRole('button', { name: 'Save view' }));
    await waitFor(() => expect(history.location.search).toBe('?view=21&discount_type=flat&is_active=true'));
    expect(saved[0]?.query).toEqual({ discount_type: 'flat', is_active: 'true' });

    await user.click(screen.getByRole('button', { name: 'Clear all' }));
    await waitFor(() =>
      expect(screen.queryByRole('list', { name: 'Search and filters in force' })).not.toBeInTheDocument(),
    );
    await user.click(await screen.findByRole('button', { name: /^View/ }));
    await user.click(
      within(await screen.findByRole('region', { name: /^View/ })).getByRole('button', { name: 'Flat and active' }),
    );
    await waitFor(() => expect(history.location.search).toBe('?view=21&discount_type=flat&is_active=true'));
    await waitFor(() => expect(queries.at(-1)?.get('discount_type')).toBe('flat'));
    const chips = screen.getByRole('list', { name: 'Search and filters in force' });
    expect(
      within(chips).getByRole('button', { name: 'Remove filter: Discount type is Flat amount' }),
    ).toBeInTheDocument();
    expect(within(chips).getByRole('button', { name: 'Remove filter: Active is Active' })).toBeInTheDocument();
  });

  it('columns: hidden and reordered from the keyboard, kept on the server, and the table follows', async () => {
    signInWith({ VOUCHER: ['view'] });
    serveRows();
    const saved: unknown[] = [];
    server.use(
      mock.put(api('list-preferences/vouchers'), async ({ request }) => {
        const body = (await request.json()) as { columns: string[] | null };
        saved.push(body);
        return HttpResponse.json({ data: { columns: body.columns, default_view_id: null, dropped: [] } });
      }),
    );
    const user = userEvent.setup();
    openList();
    await screen.findByRole('cell', { name: 'FLAT50' });
    await screen.findByRole('button', { name: 'Columns' });
    screen.getByRole('button', { name: 'Columns' }).focus();
    await user.keyboard('{Enter}');
    const panel = await screen.findByRole('region', { name: 'Columns' });
    await user.click(within(panel).getByRole('checkbox', { name: 'Discount type' }));
    await waitFor(() =>
      expect(saved.at(-1)).toEqual({ columns: ['code', 'discount_value', 'valid_to', 'used_count', 'is_active'] }),
    );
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: /Discount type/ })).not.toBeInTheDocument());
    await user.click(
      within(screen.getByRole('region', { name: 'Columns' })).getByRole('button', { name: 'Move Discount value up' }),
    );
    await waitFor(() =>
      expect(saved.at(-1)).toEqual({ columns: ['discount_value', 'code', 'valid_to', 'used_count', 'is_active'] }),
    );
    await waitFor(() => expect(screen.getAllByRole('columnheader')[0]).toHaveTextContent('Discount value'));
  });

  it('the default view opens when the address names nothing; a view the user cannot see gives the plain list and a notice', async () => {
    signInWith({ VOUCHER: ['view'] });
    const queries = serveRows([], 'PLAIN1');
    const plainRows = watchFor('PLAIN1');
    server.use(
      mock.get(api('views/vouchers'), () =>
        HttpResponse.json(
          viewsAnswer({
            views: [view(7, 'Flat ones', { discount_type: 'flat', sort: '-code' }, { dropped: ['region'] })],
            preferences: { columns: null, default_view_id: 7, dropped: [] },
          }),
        ),
      ),
    );
    const first = openList();
    await waitFor(() => expect(first.history.location.search).toBe('?view=7&discount_type=flat&sort=-code'));
    await waitFor(() => expect(queries.at(-1)?.get('discount_type')).toBe('flat'));
    // The plain list may be asked while the views are on their way (most users have no default view, and they do not
    // wait for them), but its rows are never shown: the list shows the view's.
    expect(await screen.findByRole('cell', { name: 'FLAT50' })).toBeInTheDocument();
    expect(queries.filter((query) => !query.has('discount_type')).length).toBeLessThanOrEqual(1);
    expect(plainRows.seen()).toBe(false);
    plainRows.stop();
    expect(
      await screen.findByText('The view “Flat ones” opened without what this list no longer has: region.'),
    ).toBeInTheDocument();
    first.unmount();

    const second = openList('/voucher-management/vouchers?view=99&discount_type=percent');
    expect(await screen.findByText(/That saved view is not available to you/)).toBeInTheDocument();
    await waitFor(() => expect(second.history.location.search).toBe(''));
  });

  it('saves the current list as a view shared with a role, and keeps what was typed when the save fails', async () => {
    signInWith({ VOUCHER: ['view'] });
    serveRows();
    const posted: unknown[] = [];
    let fail = true;
    server.use(
      mock.get(api('views/vouchers'), () =>
        HttpResponse.json(viewsAnswer({ share_roles: [{ id: 2, name: 'Sales Executive' }] })),
      ),
      mock.post(api('views/vouchers'), async ({ request }) => {
        const body = (await request.json()) as { name: string; query: Record<string, string> };
        posted.push(body);
        if (fail)
          return HttpResponse.json({ message: 'Name: Try again.', errors: { name: 'Try again.' } }, { status: 400 });
        return HttpResponse.json(
          {
            data: view(12, body.name, body.query, { shared_role_id: 2, shared_role_name: 'Sales Executive' }),
            message: 'View saved.',
          },
          { status: 201 },
        );
      }),
    );
    const user = userEvent.setup();
    const { history } = openList('/voucher-management/vouchers?discount_type=flat&q=FL');
    await screen.findByRole('cell', { name: 'FLAT50' });
    await user.click(await screen.findByRole('button', { name: 'Views' }));
    const panel = await screen.findByRole('region', { name: 'Views' });
    await user.type(within(panel).getByLabelText('Save current as…'), 'Flat FL');
    await user.selectOptions(within(panel).getByLabelText('Share with'), 'Sales Executive');
    await user.click(within(panel).getByRole('button', { name: 'Save view' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({ name: 'Flat FL', shared_role_id: 2, query: { discount_type: 'flat', q: 'FL' } });
    expect(within(panel).getByLabelText('Save current as…')).toHaveValue('Flat FL');
    fail = false;
    await user.click(within(panel).getByRole('button', { name: 'Save view' }));
    await waitFor(() => expect(history.location.search).toBe('?view=12&discount_type=flat&q=FL'));
  });
});

describe('saved views a page at a time', () => {
  it('the menu shows the first page and "Show more" for the rest, by the total the server counts', async () => {
    signInWith({ VOUCHER: ['view'] });
    serveRows();
    const pagesAsked: string[] = [];
    const all = [
      view(1, 'Alpha', {}),
      view(2, 'Beta', {}),
      view(3, 'Gamma', {}, { mine: false, owner_name: 'Sunil Sales' }),
    ];
    server.use(
      mock.get(api('views/vouchers'), ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('_page'));
        pagesAsked.push(String(page));
        return HttpResponse.json(
          viewsAnswer({ views: all.slice((page - 1) * 2, page * 2) }, { total: 3, page, page_size: 2 }),
        );
      }),
    );
    const user = userEvent.setup();
    openList();
    await screen.findByRole('cell', { name: 'FLAT50' });
    await user.click(await screen.findByRole('button', { name: 'Views' }));
    const panel = await screen.findByRole('region', { name: 'Views' });
    const names = () =>
      within(within(panel).getByRole('list', { name: 'Saved views' }))
        .getAllByRole('listitem')
        .map((item) => within(item).getAllByRole('button')[0]!.textContent);
    expect(names()).toEqual(['Alpha', 'Beta']);
    await user.click(within(panel).getByRole('button', { name: 'Show more (1 more)' }));
    await waitFor(() => expect(names()).toEqual(['Alpha', 'Beta', 'Gamma']));
    expect(within(panel).queryByRole('button', { name: /Show more/ })).not.toBeInTheDocument();
    expect(pagesAsked).toEqual(['1', '2']);
  });

  it('a default view on no page loaded opens by its id; a view the address names that the user may not open gives the notice', async () => {
    signInWith({ VOUCHER: ['view'] });
    const queries = serveRows([], 'PLAIN1');
    const plainRows = watchFor('PLAIN1');
    const asked: string[] = [];
    server.use(
      mock.get(api('views/vouchers'), () =>
        HttpResponse.json(
          viewsAnswer(
            { views: [view(1, 'Alpha', {})], preferences: { columns: null, default_view_id: 150, dropped: [] } },
            { total: 150, page_size: 1 },
          ),
        ),
      ),
      mock.get(api('views/vouchers/150'), () => {
        asked.push('150');
        return HttpResponse.json({ data: view(150, 'Far down', { discount_type: 'percent' }) });
      }),
      mock.get(api('views/vouchers/77'), () => {
        asked.push('77');
        return HttpResponse.json({ message: 'View not found.' }, { status: 404 });
      }),
    );
    const user = userEvent.setup();
    const first = openList();
    await waitFor(() => expect(first.history.location.search).toBe('?view=150&discount_type=percent'));
    await waitFor(() => expect(queries.at(-1)?.get('discount_type')).toBe('percent'));
    expect(await screen.findByRole('cell', { name: 'FLAT50' })).toBeInTheDocument();
    expect(queries.filter((query) => !query.has('discount_type')).length).toBeLessThanOrEqual(1);
    expect(plainRows.seen()).toBe(false);
    plainRows.stop();
    await user.click(await screen.findByRole('button', { name: 'View: Far down' }));
    first.unmount();

    const second = openList('/voucher-management/vouchers?view=77');
    expect(await screen.findByText(/That saved view is not available to you/)).toBeInTheDocument();
    await waitFor(() => expect(second.history.location.search).toBe(''));
    // The plain list it promises is loaded, and the default view does not replace it.
    await waitFor(() => expect(queries.at(-1)?.get('discount_type')).toBeNull());
    expect(second.history.location.search).toBe('');
    expect(asked).toEqual(['150', '77']);
  });

  it('a save refused for a limit says so beside the name, and no toast of the same refusal besides', async () => {
    signInWith({ VOUCHER: ['view'] });
    serveRows();
    const limit = 'You have 50 private views of the vouchers list, the most a user may keep (50): delete one first.';
    let full = true;
    server.use(
      mock.post(api('views/vouchers'), async ({ request }) => {
        const body = (await request.json()) as { name: string; query: Record<string, string> };
        if (full)
          return HttpResponse.json(
            { message: `Share with: ${limit}`, errors: { shared_role_id: limit } },
            { status: 400 },
          );
        return HttpResponse.json(
          { data: view(51, body.name, body.query), message: `View "${body.name}" saved.` },
          { status: 201 },
        );
      }),
    );
    render(<ToastHost />);
    const user = userEvent.setup();
    openList('/voucher-management/vouchers?discount_type=flat');
    await screen.findByRole('cell', { name: 'FLAT50' });
    await user.click(await screen.findByRole('button', { name: 'Views' }));
    const panel = await screen.findByRole('region', { name: 'Views' });
    const name = within(panel).getByLabelText('Save current as…');
    await user.type(name, 'One too many');
    await user.click(within(panel).getByRole('button', { name: 'Save view' }));
    expect(await within(panel).findByText(limit)).toBeInTheDocument();
    expect(name).toHaveValue('One too many');
    expect(name).toHaveAccessibleDescription(limit);
    // Once one was deleted elsewhere, the same save goes through; its toast shows where the refusal's would have.
    full = false;
    await user.click(within(panel).getByRole('button', { name: 'Save view' }));
    expect(await screen.findByText('View "One too many" saved.')).toBeInTheDocument();
    expect(screen.queryByText(`Share with: ${limit}`)).not.toBeInTheDocument();
  });
});
