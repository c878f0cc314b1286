import type { SessionClaims } from './claims.ts';

const ORIGIN = 'https://console.invalid';
/** Paths that would bounce a logged-in user straight back here (ROUTE-01, ROUTE-02): never a landing path. */
const GUEST_PATH = /^\/(?:[?#]|$)|^\/auth(?:[/?#]|$)/;

/**
 * The path itself when it stays inside the app, otherwise null: no open redirect through `//host`, `/\host`,
 * a scheme, control characters, or any of these hidden behind percent-encoding.
 */
export function safeAppPath(candidate: string): string | null {
  let decoded = candidate;
  for (let round = 0; round < 5; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      return null;
    }
    if (next === decoded) break;
    decoded = next;
  }
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (!decoded.startsWith('/') || decoded.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(decoded)) return null;
  const url = new URL(candidate, ORIGIN);
  if (url.origin !== ORIGIN) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The path when it is a safe in-app path outside the guest area, else null. */
function signedInPath(candidate: string): string | null {
  const path = safeAppPath(candidate);
  return path !== null && !GUEST_PATH.test(path) ? path : null;
}

/** ROUTE-15: the token's default_url when it is a safe in-app path outside the guest area, else null. */
export function landingPath(claims: SessionClaims | null): string | null {
  return claims?.default_url ? signedInPath(claims.default_url) : null;
}

/** What the login screen is told about why the visitor is there (router state, so no link can fake it). */
export interface LoginState {
  sessionExpired?: boolean;
}

/** The login screen's query parameter naming the page to return to after signing in. */
const RETURN_PARAM = 'next';

/** The query of a login address that returns the user to `path` (path and query) once signed in. */
export function returnQuery(path: string): string {
  return `?${new URLSearchParams({ [RETURN_PARAM]: path })}`;
}

/** The page a login address asks to return to, when it is a safe in-app path outside the guest area; else null. */
export function returnPath(search: string): string | null {
  const wanted = new URLSearchParams(search).get(RETURN_PARAM);
  return wanted ? signedInPath(wanted) : null;
}
