import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { http as mock, HttpResponse } from 'msw';
import { matchRoutes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOME_PATH } from '../../contract/homePath.ts';
import { AREAS } from '../generated/routes.ts';
import type { AreaRoute } from '../generated/types.ts';
import type { Permissions } from '../permissions/types.ts';
import { startSession } from '../session/sessionStore.ts';
import { tokenStore } from '../session/tokenStore.ts';
import { api, setupApiServer } from '../test/apiServer.ts';
import { renderRoutes } from '../test/renderWithRouter.tsx';
import { TEST_PERMISSIONS, testAreas } from '../test/testAreas.ts';
import { makeToken } from '../test/tokens.ts';
import { appRoutes } from './appRoutes.tsx';

vi.mock('../screens/index.ts', async () => ({ SCREENS: (await import('../test/mockScreens.tsx')).MOCK_SCREENS }));

const server = setupApiServer();

function serve(permissions: Permissions = TEST_PERMISSIONS) {
  server.use(
    mock.get(api('user/permission'), () => HttpResponse.json({ data: permissions })),
    mock.get(api('notification'), () => HttpResponse.json({ data: [], meta: { total: 0, page: 1, page_size: 8 } })),
  );
}

function renderApp(path: string, areas: AreaRoute[] = testAreas()) {
  return { history: renderRoutes(appRoutes(areas), [path]).history, areas };
}

const logIn = (claims: Parameters<typeof makeToken>[0] = {}) => startSession(makeToken(claims), 'refresh-1');
const at = (history: { location: { pathname: string } }, pathname: string) =>
  waitFor(() => expect(history.location.pathname).toBe(pathname));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the route table', () => {
  it('ROUTE-01 / redirects to /auth (exact match only), which shows the login screen', async () => {
    const { history } = renderApp('/');
    await at(history, '/auth/login');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();

    const other = renderApp('/authx');
    expect(await screen.findAllByText(/ERROR 404/)).toHaveLength(1);
    expect(other.history.location.pathname).toBe('/authx');
  });

  it('ROUTE-02 SESSION-09 the auth area is guest-only: a logged-in user is sent to their landing path', async () => {
    serve();
    logIn({ default_url: '/voucher-management/vouchers/add' });
    const { history } = renderApp('/auth/login');
    await at(history, '/voucher-management/vouchers/add');
    expect(await screen.findByRole('heading', { name: 'form screen: Vouchers add' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Sign in' })).not.toBeInTheDocument();
  });

  it('ROUTE-15 without a usable default_url the landing path is the first routable path of the permissions', async () => {
    serve();
    logIn({ default_url: 'https://evil.example.com' });
    const { history } = renderApp('/auth/login');
    await at(history, '/voucher-management/vouchers');
  });

  it('ROUTE-03 SESSION-09 the authenticated areas send a logged-out visitor to /auth/login', async () => {
    const { history } = renderApp('/user-management/users');
    await at(history, '/auth/login');
    expect(screen.queryByText(/list screen/)).not.toBeInTheDocument();

    const guarded = [
      'user-management',
      'masters',
      'data-column',
      'data-upload-management',
      'subscription-management',
      'subscriber-management',
      'developers',
      'profile-management',
    ];
    for (const path of guarded)
      expect(AREAS.find((area) => area.path === path)).toMatchObject({ guard: 'authenticated', layout: 'admin' });
  });

  it('ROUTE-04 the other admin areas never show their screens to a logged-out visitor', async () => {
    const unguarded = [
      'subscribers-details-management',
      'executive-profile-management',
      'voucher-management',
      'category-management',
      'company-management',
      'banner-management',
      'employee-management',
      'admin-reporting-management',
      'company-employee-contacts-management',
      'country-management',
      'create-hs-code-management',
      'related-product-management',
    ];
    for (const path of unguarded) expect(AREAS.find((area) => area.path === path)).toMatchObject({ layout: 'admin' });
    const { history, areas } = renderApp('/voucher-management/vouchers');
    await at(history, '/auth/login');
    expect(screen.queryByText(/screen:/)).not.toBeInTheDocument();
    expect(areas[0]!.load).not.toHaveBeenCalled();
  });

  it('ROUTE-05 /403 shows the forbidden page, /404 and any unknown path the not-found page', async () => {
    renderApp('/403');
    expect(await screen.findByRole('heading', { name: 'ERROR 403 ACCESS DENIED' })).toBeInTheDocument();
    const { unmount } = renderRoutes(appRoutes(testAreas()), ['/404']);
    expect(await screen.findByRole('heading', { name: 'ERROR 404 PAGE NOT FOUND' })).toBeInTheDocument();
    unmount();
    const unknown = renderApp('/voucher-management/nothing/here');
    expect(await screen.findAllByRole('heading', { name: 'ERROR 404 PAGE NOT FOUND' })).toHaveLength(1);
    expect(unknown.history.location.pathname).toBe('/voucher-management/nothing/here');
  });

  it('ROUTE-06 an area chunk loads on the first visit to the area, not before', async () => {
    serve();
    logIn();
    const { history, areas } = renderApp('/profile-management/profile');
    expect(await screen.findByRole('heading', { name: 'profile screen: Profile view' })).toBeInTheDocument();
    const voucherArea = areas[0]!;
    expect(voucherArea.load).not.toHaveBeenCalled();
    await act(() => history.push('/voucher-management/vouchers'));
    expect(await screen.findByRole('heading', { name: 'list screen: Vouchers view' })).toBeInTheDocument();
    expect(voucherArea.load).toHaveBeenCalledTimes(1);
    // Every generated area loads through its own dynamic import.
    for (const area of AREAS) expect(area.load.toString()).toContain(`areas/${area.path}.ts`);
  });

  it('ROUTE-07 scroll position is restored on back and forward navigation', async () => {
    serve();
    logIn();
    const scrollTo = vi.fn();
    vi.stubGlobal('scrollTo', scrollTo);
    const { history } = renderApp('/voucher-management/vouchers');
    await screen.findByRole('heading', { name: 'list screen: Vouchers view' });
    vi.spyOn(window, 'scrollY', 'get').mockReturnValue(640);
    await act(() => history.push('/voucher-management/vouchers/add'));
    await screen.findByRole('heading', { name: 'form screen: Vouchers add' });
    vi.spyOn(window, 'scrollY', 'get').mockReturnValue(0);
    scrollTo.mockClear();
    await act(() => history.go(-1));
    await screen.findByRole('heading', { name: 'list screen: Vouchers view' });
    await waitFor(() => expect(scrollTo).toHaveBeenCalledWith(0, 640));
    vi.unstubAllGlobals();
  });

  it('ROUTE-08 flagged areas are preloaded after the first screen renders; others are not', async () => {
    serve();
    logIn();
    const { areas } = renderApp('/profile-management/profile');
    await screen.findByRole('heading', { name: 'profile screen: Profile view' });
    const [vouchers, users] = areas;
    await waitFor(() => expect(users!.load).toHaveBeenCalled());
    expect(vouchers!.load).not.toHaveBeenCalled();
  });

  it('ROUTE-08 the flagged areas are preloaded after the first screen renders also when it is the sign-in screen', async () => {
    const { areas } = renderApp('/auth/login');
    await screen.findByRole('heading', { name: 'Sign in' });
    const [vouchers, users] = areas;
    await waitFor(() => expect(users!.load).toHaveBeenCalled());
    expect(vouchers!.load).not.toHaveBeenCalled();
  });

  it('ROUTE-08 on the sign-in screen the home screen, where a sign-in lands, is preloaded before the flagged areas', async () => {
    const areas = testAreas();
    const routes = appRoutes(areas);
    const homeChunksLoaded = () =>
      (matchRoutes(routes, HOME_PATH) ?? [])
        .map((match) => match.route.handle as { loaded: () => boolean } | undefined)
        .filter((handle) => handle !== undefined)
        .map((handle) => handle.loaded());
    const [, users] = areas;
    let homeWhenAreasStarted: boolean[] = [];
    const load = users!.load;
    users!.load = vi.fn(() => {
      homeWhenAreasStarted = homeChunksLoaded();
      return load();
    });
    renderRoutes(routes, ['/auth/login']);
    await screen.findByRole('heading', { name: 'Sign in' });
    await waitFor(() => expect(users!.load).toHaveBeenCalled(), { timeout: 10_000 });
    // The admin layout and the home screen.
    expect(homeWhenAreasStarted).toEqual([true, true]);
  });

  it('ROUTE-09 a module serves view at its index route, add and edit', async () => {
    serve();
    logIn();
    const { history } = renderApp('/voucher-management/vouchers');
    expect(await screen.findByRole('heading', { name: 'list screen: Vouchers view' })).toBeInTheDocument();
    await act(() => history.push('/voucher-management/vouchers/add'));
    expect(await screen.findByRole('heading', { name: 'form screen: Vouchers add' })).toBeInTheDocument();
    await act(() => history.push('/voucher-management/vouchers/12/edit'));
    expect(await screen.findByRole('heading', { name: 'form screen: Vouchers edit' })).toBeInTheDocument();
  });

  it('ROUTE-11 the profile screen is at /profile-management/profile', async () => {
    expect(AREAS.flatMap((area) => area.routes)).toContainEqual(
      expect.objectContaining({ module: 'USER_PROFILE', action: 'view', path: '/profile-management/profile' }),
    );
    serve();
    logIn();
    renderApp('/profile-management/profile');
    expect(await screen.findByRole('heading', { name: 'profile screen: Profile view' })).toBeInTheDocument();
  });

  it('SESSION-04 an expired token, when checked, logs out and redirects to /auth/login', async () => {
    localStorage.setItem(tokenStore.accessKey, makeToken({ exp: Math.floor(Date.now() / 1000) - 5 }));
    const { history } = renderApp('/user-management/users');
    await at(history, '/auth/login');
    expect(tokenStore.access()).toBeNull();
  });
});

describe('the permission guard', () => {
  it('PERM-10 a route whose module/action the user lacks shows the 403 page, never the screen', async () => {
    serve({
      ...TEST_PERMISSIONS,
      VOUCHER: { order: 2, actions: { view: { is_routable: true, route_url: '/voucher-management/vouchers' } } },
    });
    logIn();
    const { history, areas } = renderApp('/voucher-management/vouchers/add');
    expect(await screen.findByRole('heading', { name: 'ERROR 403 ACCESS DENIED' })).toBeInTheDocument();
    // The address stays the one asked for, so it can be shared, reloaded once access is granted, or gone back from.
    expect(history.location.pathname).toBe('/voucher-management/vouchers/add');
    expect(screen.queryByText(/form screen/)).not.toBeInTheDocument();
    expect(areas[0]!.load).not.toHaveBeenCalled();
  });

  const trashRoute = {
    module: 'VOUCHER',
    action: 'view',
    path: '/voucher-management/vouchers/trash',
    routable: false,
    screen: 'trash',
  } as const;
  const withTrash = () =>
    testAreas().map((area, index) => (index === 0 ? { ...area, routes: [...area.routes, trashRoute] } : area));
  const voucherView = { view: { is_routable: true, route_url: '/voucher-management/vouchers' } };

  it('PERM-10 a trash needs delete as well as view: without delete it shows the 403 page at its address', async () => {
    serve({ ...TEST_PERMISSIONS, VOUCHER: { order: 2, actions: voucherView } });
    logIn();
    const { history } = renderApp(trashRoute.path, withTrash());
    expect(await screen.findByRole('heading', { name: 'ERROR 403 ACCESS DENIED' })).toBeInTheDocument();
    expect(history.location.pathname).toBe(trashRoute.path);
    expect(screen.queryByText(/trash screen/)).not.toBeInTheDocument();
  });

  it('PERM-10 a trash opens for who may view and delete', async () => {
    serve({
      ...TEST_PERMISSIONS,
      VOUCHER: { order: 2, actions: { ...voucherView, delete: { is_routable: false, route_url: '' } } },
    });
    logIn();
    renderApp(trashRoute.path, withTrash());
    expect(await screen.findByRole('heading', { name: 'trash screen: Vouchers view' })).toBeInTheDocument();
  });

  it('PERM-10 an area root sends the user to their default route for it, or to 403 when they have none', async () => {
    serve();
    logIn();
    const { history } = renderApp('/voucher-management');
    await at(history, '/voucher-management/vouchers');
    expect(await screen.findByRole('heading', { name: 'list screen: Vouchers view' })).toBeInTheDocument();
  });

  it('PERM-10 an area root where the user has no routable path shows the 403 page', async () => {
    serve({ USER_PROFILE: TEST_PERMISSIONS.USER_PROFILE! });
    logIn();
    const { history } = renderApp('/user-management');
    expect(await screen.findByRole('heading', { name: 'ERROR 403 ACCESS DENIED' })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/user-management');
  });

  it('PERM-10 default deny: with no permissions at all nothing renders but the 403 page', async () => {
    serve({});
    logIn();
    const { history } = renderApp('/user-management/users');
    expect(await screen.findByRole('heading', { name: 'ERROR 403 ACCESS DENIED' })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/user-management/users');
    expect(screen.queryByText(/screen:/)).not.toBeInTheDocument();
  });
});

describe('layouts', () => {
  it('LAYOUT-02 the admin layout has the header, the collapsible sidebar and the routed content', async () => {
    serve();
    logIn();
    renderApp('/voucher-management/vouchers');
    const main = await screen.findByRole('main');
    expect(await screen.findByRole('heading', { name: 'list screen: Vouchers view' })).toBeInTheDocument();
    expect(main).toContainElement(screen.getByRole('heading', { name: 'list screen: Vouchers view' }));
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('the 403 and 404 pages keep the header and the sidebar for a signed-in user, and stand alone for a visitor', async () => {
    serve();
    logIn();
    const signedIn = renderApp('/voucher-management/no-such-screen');
    const heading = await screen.findByRole('heading', { name: 'ERROR 404 PAGE NOT FOUND' });
    expect(await screen.findByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toContainElement(heading);
    await act(() => signedIn.history.push('/403'));
    expect(await screen.findByRole('heading', { name: 'ERROR 403 ACCESS DENIED' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    cleanup();

    tokenStore.clear();
    renderApp('/404');
    expect(await screen.findByRole('heading', { name: 'ERROR 404 PAGE NOT FOUND' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toContainElement(
      screen.getByRole('heading', { name: 'ERROR 404 PAGE NOT FOUND' }),
    );
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  });

  it('LAYOUT-01 the guest layout is a bare page: a header and the routed content, no sidebar', async () => {
    renderApp('/auth/login');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toContainElement(screen.getByRole('heading', { name: 'Sign in' }));
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  });
});
