import { useMemo, useSyncExternalStore } from 'react';
import { landingPath } from './landingPath.ts';
import { logout } from './logout.ts';
import { sessionStore } from './sessionStore.ts';
import { sessionUser, type SessionUser } from './sessionUser.ts';

export interface UseSessionResult {
  user: SessionUser | null;
  loggedIn: boolean;
  /** ROUTE-15: where to go after login (the token's default_url when it is a safe in-app path). */
  landingPath: string | null;
  logout: () => Promise<void>;
}

export function useSession(): UseSessionResult {
  const snapshot = useSyncExternalStore(sessionStore.subscribe, sessionStore.get);
  return useMemo(
    () => ({
      user: snapshot.loggedIn && snapshot.claims ? sessionUser(snapshot.claims) : null,
      loggedIn: snapshot.loggedIn,
      landingPath: snapshot.loggedIn ? landingPath(snapshot.claims) : null,
      logout,
    }),
    [snapshot],
  );
}
