import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { vouchers } from '../../testing/fixtures.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../../testing/renderScreen.tsx';
import ListScreen from '../ListScreen.tsx';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function serveRows(queries: URLSearchParams[] = []) {
  server.use(
    mock.get(api('vouchers'), ({ request }) => {
      queries.push(new URL(request.url).searchParams);
      return HttpResponse.json({
        data: [{ id: 1, code: 'FLAT50', discount_type: 'flat', discount_value: 50, is_active: true, version: 2 }],
        meta: { total: 1, page: 1, page_size: 20 },
      });
    }),
  );
  return queries;
}

describe('the list search from the keyboard', () => {
  it('"/" focuses the search box from anywhere but a field; typing searches; Escape clears the search and the address at once', async () => {
    signInWith({ VOUCHER: ['view'] });
    const queries = serveRows();
    const user = userEvent.setup();
    const { history } = renderScreen(ListScreen, { resource: vouchers, route: routeOf(vouchers, 'view', 'list') });
    await screen.findByRole('cell', { name: 'FLAT50' });
    const search = screen.getByRole('searchbox', { name: 'Search vouchers' });
    // Its label is for assistive technology; the placeholder says it on screen.
    expect(search).toHaveAttribute('placeholder', 'Search vouchers');
    expect(search).toHaveAttribute('aria-keyshortcuts', '/');

    screen.getByRole('button', { name: 'Filter' }).focus();
    await user.keyboard('/');
    expect(search).toHaveFocus();
    expect(search).toHaveValue('');
    await user.keyboard('code4');
    await waitFor(() => expect(history.location.search).toBe('?q=code4'));
    await waitFor(() => expect(queries.at(-1)?.get('q')).toBe('code4'));
    // In the search box itself "/" is text.
    await user.keyboard('/');
    expect(search).toHaveValue('code4/');

    await user.keyboard('{Escape}');
    expect(search).toHaveValue('');
    await waitFor(() => expect(history.location.search).toBe(''));
    await waitFor(() => expect(queries.at(-1)?.has('q')).toBe(false));
  });

  it('leaving the box applies what was typed at once, before the pause ends', async () => {
    signInWith({ VOUCHER: ['view'] });
    serveRows();
    const { history } = renderScreen(ListScreen, { resource: vouchers, route: routeOf(vouchers, 'view', 'list') });
    await screen.findByRole('cell', { name: 'FLAT50' });
    const search = screen.getByRole('searchbox', { name: 'Search vouchers' });
    // Typed and left in one go: no pause has passed, the address changes on leaving.
    fireEvent.change(search, { target: { value: 'flat' } });
    expect(history.location.search).toBe('');
    fireEvent.blur(search);
    expect(history.location.search).toBe('?q=flat');
  });

  it('"/" with a modifier, or typed in another field or an open dialog, leaves the focus where it is', async () => {
    signInWith({ VOUCHER: ['view'] });
    serveRows();
    const user = userEvent.setup();
    renderScreen(ListScreen, { resource: vouchers, route: routeOf(vouchers, 'view', 'list') });
    await screen.findByRole('cell', { name: 'FLAT50' });
    const search = screen.getByRole('searchbox', { name: 'Search vouchers' });
    const filter = screen.getByRole('button', { name: 'Filter' });
    filter.focus();
    await user.keyboard('{Control>}/{/Control}');
    expect(filter).toHaveFocus();

    await user.click(filter);
    const dialog = await screen.findByRole('dialog', { name: 'Add a filter' });
    const apply = within(dialog).getByRole('button', { name: 'Apply' });
    apply.focus();
    await user.keyboard('/');
    expect(apply).toHaveFocus();
    expect(search).not.toHaveFocus();
  });
});
