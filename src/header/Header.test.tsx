import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '../http/http.ts';
import { permissionStore } from '../permissions/permissionStore.ts';
import type { Permissions } from '../permissions/types.ts';
import { sessionStore, startSession } from '../session/sessionStore.ts';
import { renderWithRouter } from '../test/renderWithRouter.tsx';
import { TEST_PERMISSIONS } from '../test/testAreas.ts';
import { makeToken } from '../test/tokens.ts';
import { Header } from './Header.tsx';

vi.mock('../http/http.ts', () => ({ http: { get: vi.fn(), post: vi.fn() } }));
const get = vi.mocked(http.get);
const post = vi.mocked(http.post);

function answer(permissions: Permissions = TEST_PERMISSIONS) {
  get.mockImplementation(
    (path: string) => Promise.resolve(path === 'user/permission' ? { data: permissions } : { data: [] }) as never,
  );
}

beforeEach(() => {
  get.mockReset();
  post.mockReset();
  permissionStore.clear();
  answer();
});

const logIn = () =>
  startSession(
    makeToken({ first_name: 'asha', last_name: 'verma', default_url: '/user-management/users' }),
    'refresh-1',
  );

describe('the header', () => {
  it('HEADER-01 the back button returns to the previous page', async () => {
    const { history } = renderWithRouter(<Header />, [
      '/voucher-management/vouchers',
      '/voucher-management/vouchers/add',
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(history.location.pathname).toBe('/voucher-management/vouchers'));
  });

  it('with no console page behind it in the tab (a link opened in a new tab), Back goes up to the list or the landing page, never out', async () => {
    logIn();
    await permissionStore.load();
    const user = userEvent.setup();
    const edit = renderWithRouter(<Header />, ['/voucher-management/vouchers/5/edit']);
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(edit.history.location.pathname).toBe('/voucher-management/vouchers'));
    edit.unmount();

    // On a list itself, or a page of no area, Back goes to the landing page (the token's default_url).
    for (const path of ['/voucher-management/vouchers', '/403']) {
      const view = renderWithRouter(<Header />, [path]);
      await user.click(screen.getByRole('button', { name: 'Back' }));
      await waitFor(() => expect(view.history.location.pathname).toBe('/user-management/users'));
      view.unmount();
    }

    // On the landing page itself there is nowhere to go back to: Back says so and stays.
    const landing = renderWithRouter(<Header />, ['/user-management/users']);
    expect(screen.getByRole('button', { name: 'Back' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(landing.history.location.pathname).toBe('/user-management/users');
  });

  it('HEADER-02 the logo links to /', () => {
    renderWithRouter(<Header />);
    expect(screen.getByRole('link', { name: /trade data admin/i })).toHaveAttribute('href', '/');
  });

  it('HEADER-03 the notifications and account dropdowns show only when logged in', async () => {
    const { unmount } = renderWithRouter(<Header />);
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /notifications/i })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /account/i })).not.toBeInTheDocument();
    unmount();
    logIn();
    renderWithRouter(<Header />);
    expect(screen.getByRole('button', { name: /notifications/i })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'AV asha verma, account menu' })).toBeInTheDocument();
  });

  it('HEADER-04 the account dropdown shows first name, last name and the uppercased initials', async () => {
    logIn();
    renderWithRouter(<Header />);
    await userEvent.click(screen.getByRole('button', { name: 'AV asha verma, account menu' }));
    const panel = screen.getByRole('region', { name: 'AV asha verma, account menu' });
    expect(within(panel).getByText('asha verma')).toBeInTheDocument();
    expect(within(panel).getByText('AV')).toBeInTheDocument();
  });

  it('HEADER-05 Profile links to /profile-management/profile and shows only with USER_PROFILE view', async () => {
    logIn();
    const { unmount } = renderWithRouter(<Header />);
    await userEvent.click(screen.getByRole('button', { name: 'AV asha verma, account menu' }));
    expect(await screen.findByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/profile-management/profile');
    unmount();

    permissionStore.clear();
    answer({
      USER_PROFILE: {
        order: 1,
        actions: { edit: { is_routable: false, route_url: '/profile-management/profile/:id/edit' } },
      },
    });
    renderWithRouter(<Header />);
    await userEvent.click(screen.getByRole('button', { name: 'AV asha verma, account menu' }));
    await waitFor(() => expect(permissionStore.get().loaded).toBe(true));
    expect(screen.queryByRole('link', { name: 'Profile' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });

  it('the account dropdown opens the Module Registry for a user who may view it, and only then', async () => {
    logIn();
    answer({
      ...TEST_PERMISSIONS,
      MODULE_REGISTRY: { order: 10, actions: { view: { is_routable: true, route_url: '/developers/modules' } } },
    });
    const user = userEvent.setup();
    const { history, unmount } = renderWithRouter(<Header />, ['/voucher-management/vouchers']);
    await user.click(screen.getByRole('button', { name: 'AV asha verma, account menu' }));
    const registry = await screen.findByRole('link', { name: 'Module Registry' });
    expect(registry).toHaveAttribute('href', '/developers/modules');
    await user.click(registry);
    expect(history.location.pathname).toBe('/developers/modules');
    expect(screen.queryByRole('region', { name: 'AV asha verma, account menu' })).not.toBeInTheDocument();
    unmount();

    permissionStore.clear();
    answer();
    renderWithRouter(<Header />);
    await user.click(screen.getByRole('button', { name: 'AV asha verma, account menu' }));
    await waitFor(() => expect(permissionStore.get().loaded).toBe(true));
    expect(await screen.findByRole('link', { name: 'Profile' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Module Registry' })).not.toBeInTheDocument();
  });

  it('HEADER-06 Logout logs out', async () => {
    post.mockResolvedValue({ message: 'Logged out' });
    logIn();
    renderWithRouter(<Header />);
    await userEvent.click(screen.getByRole('button', { name: 'AV asha verma, account menu' }));
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(post).toHaveBeenCalledWith('logout', {});
    await waitFor(() => expect(sessionStore.get().loggedIn).toBe(false));
    expect(screen.queryByRole('button', { name: /account/i })).not.toBeInTheDocument();
  });
});
