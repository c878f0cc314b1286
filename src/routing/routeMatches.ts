import { matchRoutes, type RouteMatch, type RouteObject } from 'react-router-dom';

/** How many addresses' matches each route table remembers: the pages a person moves between, records included. */
const REMEMBERED_PATHNAMES = 32;

const matchesByTable = new WeakMap<RouteObject[], Map<string, RouteMatch[] | null>>();

/**
 * The routes of `routes` matching `pathname`, as React Router's matchRoutes finds them. matchRoutes flattens and ranks
 * the whole table on every call (some 200 routes here: tens of milliseconds on a slow device before the JIT warms),
 * and a navigation asks three times (its chunks, its data, its render); the table never changes once built, so the
 * matches of the last addresses are kept. The matches are shared: read them, never change them.
 */
export function matchAppRoutes(routes: RouteObject[], pathname: string): RouteMatch[] | null {
  let remembered = matchesByTable.get(routes);
  if (!remembered) matchesByTable.set(routes, (remembered = new Map()));
  if (remembered.has(pathname)) {
    const matches = remembered.get(pathname) ?? null;
    // Re-inserted so that the Map's order is the order of use and the first key the least recently used.
    remembered.delete(pathname);
    remembered.set(pathname, matches);
    return matches;
  }
  const matches = matchRoutes(routes, { pathname });
  remembered.set(pathname, matches);
  if (remembered.size > REMEMBERED_PATHNAMES) remembered.delete(remembered.keys().next().value as string);
  return matches;
}

/** `%`, `?` and `#` kept as characters of a path (encodeLocation parses its argument as a URL). */
const asPathCharacters = (path: string) => path.replace(/%/g, '%25').replace(/\?/g, '%3F').replace(/#/g, '%23');

/**
 * The matches as useRoutes renders them at the top of the table: matchRoutes decodes the address, and relative links
 * resolve against the matched pathnames, so they are encoded again as the history spells addresses.
 */
export function encodedMatches(
  matches: RouteMatch[] | null,
  encodeLocation: ((to: string) => { pathname: string }) | undefined,
): RouteMatch[] | null {
  if (!matches || !encodeLocation) return matches;
  const encode = (path: string) => encodeLocation(asPathCharacters(path)).pathname;
  return matches.map((match) => ({
    ...match,
    pathname: encode(match.pathname),
    pathnameBase: match.pathnameBase === '/' ? '/' : encode(match.pathnameBase),
  }));
}
