import { matchRoutes, type RouteMatch, type RouteObject } from 'react-router-dom';

/** How many addresses' matches each route table remembers: the pages a person moves between, records included. */
const REMEMBERED_PATHNAMES = 32;

/** How many first segments' parts of a route table are kept (an address typed by hand may have any). */
const REMEMBERED_SEGMENTS = 64;

const matchesByTable = new WeakMap<RouteObject[], Map<string, RouteMatch[] | null>>();
const partsByTable = new WeakMap<RouteObject[], Map<string, RouteObject[]>>();

/**
 * The routes of `routes` matching `pathname`, as React Router's matchRoutes finds them in the whole table. matchRoutes
 * flattens and ranks every route of the table it is given on every call, and a navigation asks three times (its
 * chunks, its data, its render): the console's table grows with the manifest (some 200 routes today, tens of
 * milliseconds on a slow device before the JIT warms). So each address is matched once (the matches of the last
 * addresses are kept), and only against the part of the table its first segment can reach: one area's routes, not
 * every area's. The matches are shared: read them, never change them.
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
  const matches = matchRoutes(partOfTable(routes, firstSegment(pathname)), { pathname });
  remembered.set(pathname, matches);
  if (remembered.size > REMEMBERED_PATHNAMES) remembered.delete(remembered.keys().next().value as string);
  return matches;
}

/** The first segment of an address as matchRoutes compares it: decoded, in lower case (routes are case-insensitive). */
function firstSegment(pathname: string): string {
  const segment = pathname.replace(/^\/+/, '').split('/')[0] ?? '';
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return segment.toLowerCase();
  }
}

/** `partOf` for `segment`, kept per table. */
function partOfTable(routes: RouteObject[], segment: string): RouteObject[] {
  let parts = partsByTable.get(routes);
  if (!parts) partsByTable.set(routes, (parts = new Map()));
  let part = parts.get(segment);
  if (!part) {
    part = partOf(routes, segment);
    if (parts.size < REMEMBERED_SEGMENTS) parts.set(segment, part);
  }
  return part;
}

/**
 * The routes that can match an address beginning with `segment`. A route whose path begins with another fixed
 * segment is left out, with everything under it; one whose path begins with a parameter, an optional segment or `*`
 * is kept whole; a route without a path keeps what of its children can match (a copy of it, when some cannot). What
 * is left out could never have matched, so matchRoutes ranks and picks among the rest as it would in the whole table.
 */
function partOf(routes: RouteObject[], segment: string): RouteObject[] {
  const part: RouteObject[] = [];
  for (const route of routes) {
    const first = (route.path ?? '').replace(/^\/+/, '').split('/')[0]!;
    if (first !== '') {
      const fixed = !first.startsWith(':') && !first.endsWith('?') && first !== '*';
      if (!fixed || first.toLowerCase() === segment) part.push(route);
    } else if (route.children) {
      const children = partOf(route.children, segment);
      part.push(children.length === route.children.length ? route : { ...route, children });
    } else part.push(route);
  }
  return part;
}

/** `%`, `?` and `#` kept as characters of a path (encodeLocation parses its argument as a URL). */
const asPathCharacters = (path: string) => path.replace(/%/g, '%25').replace(/\?/g, '%3F').replace(/#/g, '%23');

/**
 * The matches as useRoutes renders them at the top of the table: matchRoutes decodes the address, and relative links
 * resolve against the matched pathnames, so they are encoded again as the history spells addresses.
 */
export function encodedMatches(
  matches: RouteMatch[] | null,
  encodeLocation: (to: string) => { pathname: string },
): RouteMatch[] | null {
  if (!matches) return matches;
  const encode = (path: string) => encodeLocation(asPathCharacters(path)).pathname;
  return matches.map((match) => ({
    ...match,
    pathname: encode(match.pathname),
    pathnameBase: match.pathnameBase === '/' ? '/' : encode(match.pathnameBase),
  }));
}
