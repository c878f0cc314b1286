import { defaultRoute, routablePaths } from '../permissions/defaultRoute.ts';
import type { Permissions } from '../permissions/types.ts';

const withoutTrailingSlash = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);
const firstSegment = (path: string) => path.split('/').filter(Boolean)[0] ?? '';

/**
 * Where Back goes when this tab has no console page behind the current one (a link opened in a new tab): the list the
 * page belongs to (the longest routable path above it), else the area's first screen, else the landing path; null
 * when that is the page itself, so Back never leaves the console.
 */
export function backTarget(
  pathname: string,
  permissions: Permissions | null,
  landingPath: string | null,
): string | null {
  const current = withoutTrailingSlash(pathname);
  const above = routablePaths(permissions)
    .filter((path) => current.startsWith(`${path}/`))
    .sort((a, b) => b.length - a.length)[0];
  const candidates = [
    above,
    defaultRoute(permissions, `/${firstSegment(current)}`),
    landingPath ?? routablePaths(permissions)[0],
  ];
  return (
    candidates.find((candidate): candidate is string => typeof candidate === 'string' && candidate !== current) ?? null
  );
}

/**
 * Whether this tab's history holds a console page behind the current one: the browser router numbers its entries
 * (`history.state.idx`); a memory router's first entry is keyed "default".
 */
export function hasPageBehind(locationKey: string): boolean {
  const index: unknown = (window.history.state as { idx?: unknown } | null)?.idx;
  return typeof index === 'number' ? index > 0 : locationKey !== 'default';
}
