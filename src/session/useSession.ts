import { useSyncExternalStore } from 'react';
import { landingPath } from './landingPath.ts';
import { logout } from './logout.ts';
import { sessionStore, type SessionSnapshot } from './sessionStore.ts';
import { sessionUser, type SessionUser } from './sessionUser.ts';

export interface UseSessionResult {
  user: SessionUser | null;
  loggedIn: boolean;
  /** ROUTE-15: where to go after login (the token's default_url when it is a safe in-app path). */
  landingPath: string | null;
  logout: () => Promise<void>;
}

export function useSession(): UseSessionResult {
  return sessionResult(useSyncExternalStore(sessionStore.subscribe, sessionStore.get));
}

/**
 * One answer per session snapshot, shared by every component that asks: a screen has many (each permission check
 * asks), and the landing path is parsed as a URL.
 */
const results = new WeakMap<SessionSnapshot, UseSessionResult>();

function sessionResult(snapshot: SessionSnapshot): UseSessionResult {
  let result = results.get(snapshot);
  if (!result) {
    result = {
      user: snapshot.loggedIn && snapshot.claims ? sessionUser(snapshot.claims) : null,
      loggedIn: snapshot.loggedIn,
      landingPath: snapshot.loggedIn ? landingPath(snapshot.claims) : null,
      logout,
    };
    results.set(snapshot, result);
  }
  return result;
}
