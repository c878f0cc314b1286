import { render, screen } from '@testing-library/react';
import { Link, Outlet, matchRoutes, useParams, type RouteObject } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { AREAS } from '../generated/routes.ts';
import { createBrowserAppHistory } from './appHistory.ts';
import { appRoutes } from './appRoutes.tsx';
import { AppRouter } from './AppRouter.tsx';
import { encodedMatches, matchAppRoutes } from './routeMatches.ts';

function Record() {
  const { id } = useParams();
  return (
    <>
      <h1>Record {id}</h1>
      <Link to="edit">Edit</Link>
    </>
  );
}

const table = (): RouteObject[] => [
  {
    path: 'records',
    element: <Outlet />,
    children: [
      { index: true, element: <h1>Records</h1> },
      { path: ':id', element: <Record /> },
      { path: ':id/edit', element: <h1>Editing</h1> },
    ],
  },
  { path: '*', element: <h1>Not found</h1> },
];

const routeIds = (matches: ReturnType<typeof matchRoutes>) => matches?.map((match) => match.route.path ?? 'index');

describe('matching an address against the route table', () => {
  it('finds what React Router finds, and hands the same matches back for an address matched before', () => {
    const routes = table();
    for (const pathname of ['/records', '/records/7', '/records/7/edit', '/elsewhere']) {
      expect(routeIds(matchAppRoutes(routes, pathname)), pathname).toEqual(routeIds(matchRoutes(routes, { pathname })));
      expect(matchAppRoutes(routes, pathname)?.at(-1)?.params).toEqual(
        matchRoutes(routes, { pathname })?.at(-1)?.params,
      );
    }
    expect(matchAppRoutes(routes, '/records/7')).toBe(matchAppRoutes(routes, '/records/7'));
    expect(matchAppRoutes(table(), '/records/7')).not.toBe(matchAppRoutes(routes, '/records/7'));
  });

  it("finds in the console's own table, for every address of every area, what React Router finds in the whole table", () => {
    const routes = appRoutes(AREAS);
    const addresses = [
      ...AREAS.flatMap((area) => [`/${area.path}`, ...area.routes.map((route) => route.path.replace(/:\w+/g, '7'))]),
      ...['/', '/home', '/auth', '/auth/login', '/auth/reset-password', '/403', '/404', '/no-such-area/users'],
      // Routes match whatever the case, and an address's segments are decoded before they are compared.
      ...['/AUTH/Login', '/%61uth/login', '/%E0%A4%A/broken-escape', '//auth//login', '/home/extra'],
    ];
    expect(addresses.length).toBeGreaterThan(150);
    const described = (matches: ReturnType<typeof matchRoutes>) =>
      matches?.map(({ route, params, pathname, pathnameBase }) => ({
        element: route.element,
        handle: route.handle,
        path: route.path,
        params,
        pathname,
        pathnameBase,
      })) ?? null;
    // React Router warns of the malformed escape (and matches it undecoded), once per matchRoutes call.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    for (const pathname of addresses) {
      const whole = described(matchRoutes(routes, { pathname }));
      expect(described(matchAppRoutes(routes, pathname)), pathname).toEqual(whole);
      // The leaf is the table's own route: its element and handle (what renders and what preloads) are the same objects.
      const leaf = matchAppRoutes(routes, pathname)?.at(-1)?.route;
      expect(leaf?.element, pathname).toBe(matchRoutes(routes, { pathname })?.at(-1)?.route.element);
    }
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('/%E0%A4%A/broken-escape'));
    warn.mockRestore();
  });

  it('keeps the last 32 addresses only, dropping the least recently used', () => {
    const routes = table();
    const first = matchAppRoutes(routes, '/records/first');
    const kept = matchAppRoutes(routes, '/records/kept');
    for (let id = 0; id < 31; id += 1) {
      matchAppRoutes(routes, `/records/${id}`);
      if (id === 15) matchAppRoutes(routes, '/records/kept');
    }
    expect(matchAppRoutes(routes, '/records/kept')).toBe(kept);
    const again = matchAppRoutes(routes, '/records/first');
    expect(again).not.toBe(first);
    expect(again?.at(-1)?.params).toEqual({ id: 'first' });
  });

  it('encodes the matched pathnames again as the history spells addresses, for links relative to them', () => {
    const history = createBrowserAppHistory();
    const matches = encodedMatches(matchAppRoutes(table(), '/records/a b%2Fc'), (to) => history.encodeLocation(to));
    expect(matches?.at(-1)?.params).toEqual({ id: 'a b/c' });
    expect(matches?.at(-1)?.pathname).toBe('/records/a%20b%252Fc');
    expect(matches?.[0]?.pathnameBase).toBe('/records');
  });

  it('renders the matched screen and resolves relative links as useRoutes would', async () => {
    window.history.replaceState(null, '', '/records/a%20b');
    render(<AppRouter history={createBrowserAppHistory()} routes={table()} />);
    expect(await screen.findByRole('heading', { name: 'Record a b' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe('/records/a%20b/edit');
  });
});
