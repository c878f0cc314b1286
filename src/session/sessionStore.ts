import { decodeClaims, isExpired, type SessionClaims } from './claims.ts';
import { tokenStore } from './tokenStore.ts';

export interface SessionSnapshot {
  token: string | null;
  claims: SessionClaims | null;
  /** SESSION-03: a token is stored, decodes, and is not past exp. */
  loggedIn: boolean;
}

function read(): SessionSnapshot {
  const token = tokenStore.access();
  const claims = token ? decodeClaims(token) : null;
  return { token, claims, loggedIn: claims !== null && !isExpired(claims) };
}

let snapshot = read();
const listeners = new Set<() => void>();
const endListeners = new Set<() => void>();

function subscribeTo(set: Set<() => void>, listener: () => void): () => void {
  set.add(listener);
  return () => void set.delete(listener);
}

/**
 * The session as one external store: every tab reads localStorage, so a login, refresh or logout in any tab
 * reaches the others through the storage event (`syncSession`).
 */
export const sessionStore = {
  get: (): SessionSnapshot => snapshot,
  subscribe: (listener: () => void) => subscribeTo(listeners, listener),
  /** The logout event (PERM-05): heard when this tab or another one ends the session. */
  onEnd: (listener: () => void) => subscribeTo(endListeners, listener),
};

/** Re-reads storage; tells subscribers when the token changed and the end listeners when it went away. */
export function syncSession(): void {
  const previous = snapshot;
  const next = read();
  if (next.token === previous.token && next.loggedIn === previous.loggedIn) return;
  snapshot = next;
  listeners.forEach((listener) => listener());
  if (previous.loggedIn && !next.loggedIn) endListeners.forEach((listener) => listener());
}

/** SESSION-06: stores both tokens of a login or refresh answer. */
export function startSession(access: string, refresh: string): void {
  tokenStore.save(access, refresh);
  syncSession();
}

/** Clears the session locally (no server call): after a 401, an expired token or a failed refresh. Idempotent. */
export function endSession(): void {
  tokenStore.clear();
  syncSession();
}

/** SESSION-04, SESSION-05: checks the stored token now; an expired or undecodable one ends the session. */
export function checkSession(): boolean {
  syncSession();
  const current = read();
  if (current.token !== null && !current.loggedIn) endSession();
  return current.loggedIn;
}
