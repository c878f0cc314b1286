import type { Permissions } from './types.ts';

const withoutTrailingSlash = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);
const firstSegment = (path: string) => path.split('/').filter(Boolean)[0] ?? '';

/** Worked out once per permissions object: the header asks on every move between screens. */
const pathsOf = new WeakMap<Permissions, readonly string[]>();

/** Every routable path of the permissions (ROUTE-10), modules sorted by their order (PERM-01). */
export function routablePaths(permissions: Permissions | null): readonly string[] {
  if (!permissions) return [];
  let paths = pathsOf.get(permissions);
  if (!paths) {
    paths = Object.values(permissions)
      .filter((entry) => entry !== undefined)
      .sort((a, b) => a.order - b.order)
      .flatMap((entry) => Object.values(entry.actions))
      .filter((action) => action?.is_routable === true && typeof action.route_url === 'string')
      .map((action) => withoutTrailingSlash(action!.route_url));
    pathsOf.set(permissions, paths);
  }
  return paths;
}

/**
 * The default-route rule. ROUTE-12: a routable path (trailing slash tolerated) is returned.
 * ROUTE-13: otherwise the first routable path with the same first segment. ROUTE-14: otherwise null.
 */
export function defaultRoute(permissions: Permissions | null, path: string): string | null {
  const paths = routablePaths(permissions);
  const requested = withoutTrailingSlash(path);
  if (paths.includes(requested)) return requested;
  const segment = firstSegment(requested);
  return paths.find((candidate) => segment !== '' && firstSegment(candidate) === segment) ?? null;
}
