import { useEffect, useSyncExternalStore } from 'react';
import { isExpired } from '../session/claims.ts';
import { checkSession, sessionStore } from '../session/sessionStore.ts';

/**
 * Whether the visitor is logged in right now, checked on every render of a guard: a token that expired since
 * the last check counts as logged out at once, and the session is ended (SESSION-04).
 */
export function useAuthenticated(): boolean {
  const { token, claims, loggedIn } = useSyncExternalStore(sessionStore.subscribe, sessionStore.get);
  const authenticated = loggedIn && claims !== null && !isExpired(claims);
  const stale = token !== null && !authenticated;
  useEffect(() => {
    if (stale) checkSession();
  }, [stale]);
  return authenticated;
}
