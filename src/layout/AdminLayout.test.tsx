import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '../http/http.ts';
import { permissionStore } from '../permissions/permissionStore.ts';
import { startSession } from '../session/sessionStore.ts';
import { renderRoutes } from '../test/renderWithRouter.tsx';
import { TEST_PERMISSIONS } from '../test/testAreas.ts';
import { makeToken } from '../test/tokens.ts';
import { AdminLayout } from './AdminLayout.tsx';

vi.mock('../http/http.ts', () => ({ http: { get: vi.fn() } }));
vi.mock('../notifications/NotificationsMenu.tsx', () => ({ NotificationsMenu: () => null }));

/** A window of this width, as CSS media queries see it. */
function windowWidth(px: number) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: /max-width: 47\.99rem/.test(query) && px < 768,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

function renderLayout() {
  return renderRoutes(
    [{ element: <AdminLayout />, children: [{ path: '*', element: <h1>Screen</h1> }] }],
    ['/voucher-management/vouchers'],
  ).history;
}

const drawer = () => screen.getByRole('navigation', { name: 'Main' });
const menuButton = () => screen.getByRole('button', { name: 'Main menu' });

beforeEach(() => {
  vi.mocked(http.get).mockResolvedValue({ data: TEST_PERMISSIONS });
  permissionStore.clear();
  startSession(makeToken(), 'refresh-1');
});

afterEach(() => vi.unstubAllGlobals());

describe('the sidebar on a phone', () => {
  it('is a drawer, closed at first, opened by the header menu button with focus on its first link; Escape closes it and gives focus back', async () => {
    windowWidth(390);
    renderLayout();
    await waitFor(() => expect(within(drawer()).getAllByRole('link').length).toBeGreaterThan(0));
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
    expect(menuButton()).toHaveAttribute('aria-controls', drawer().id);
    expect(drawer()).not.toHaveClass('sidebar-drawer-open');
    await userEvent.click(menuButton());
    expect(menuButton()).toHaveAttribute('aria-expanded', 'true');
    expect(drawer()).toHaveClass('sidebar-drawer-open');
    expect(within(drawer()).getAllByRole('link')[0]).toHaveFocus();
    // The page behind is out of reach while the drawer is open.
    expect(screen.getByRole('main', { hidden: true })).toHaveAttribute('inert');
    await userEvent.keyboard('{Escape}');
    expect(drawer()).not.toHaveClass('sidebar-drawer-open');
    expect(menuButton()).toHaveFocus();
    expect(screen.getByRole('main')).not.toHaveAttribute('inert');
  });

  it('closes when a link is followed, and on a tap beside it', async () => {
    windowWidth(390);
    const history = renderLayout();
    await userEvent.click(menuButton());
    await userEvent.click(within(drawer()).getByRole('link', { name: 'Users and roles' }));
    await waitFor(() => expect(history.location.pathname).toMatch(/^\/user-management/));
    expect(drawer()).not.toHaveClass('sidebar-drawer-open');
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(menuButton());
    await userEvent.click(document.querySelector('.drawer-backdrop')!);
    expect(drawer()).not.toHaveClass('sidebar-drawer-open');
    expect(menuButton()).toHaveFocus();
  });

  it('on a laptop there is no menu button: the sidebar sits beside the content with its own toggle', async () => {
    windowWidth(1280);
    renderLayout();
    await waitFor(() => expect(within(drawer()).getAllByRole('link').length).toBeGreaterThan(0));
    expect(screen.queryByRole('button', { name: 'Main menu' })).not.toBeInTheDocument();
    expect(within(drawer()).getByRole('button', { name: 'Menu' })).toBeInTheDocument();
  });
});
