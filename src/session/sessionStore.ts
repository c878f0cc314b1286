import { decodeClaims, isExpired, type SessionClaims } from './claims.ts';
import { tokenStore } from './tokenStore.ts';

export interface SessionSnapshot {
  token: string | null;
  claims: SessionClaims | null;
  /** SESSION-03: a token is stored, decodes, and is not past exp. */
  loggedIn: boolean;
}

/** The last token decoded: every navigation checks the session, and the token rarely changes between two. */
let decoded: { token: string; claims: SessionClaims | null } | null = null;

function claimsOf(token: string): SessionClaims | null {
  if (decoded?.token !== token) decoded = { token, claims: decodeClaims(token) };
  return decoded.claims;
}

function read(): SessionSnapshot {
  const token = tokenStore.access();
  const claims = token ? claimsOf(token) : null;
  return { token, claims, loggedIn: claims !== null && !isExpired(claims) };
}

/**
 * Why the last session ended: `expired` (its token ran out, a refresh was refused, the API answered 401) or
 * `logout` (the user logged out, here or in another tab). Null while no session has ended since the last login.
 */
export type SessionEndReason = 'expired' | 'logout';

let snapshot = read();
let endReason: SessionEndReason | null = null;
let announced: SessionEndReason | null = null;
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
  /** Why the last session ended (null when none has since the last login). */
  endReason: (): SessionEndReason | null => endReason,
};

/** Re-reads storage; tells subscribers when the token changed and the end listeners when it went away. */
export function syncSession(): void {
  update(null);
}

/** `ending`: the reason of a session this tab is ending now, if it is. */
function update(ending: SessionEndReason | null): void {
  const previous = snapshot;
  const next = read();
  if (ending) endReason = ending;
  if (next.token === previous.token && next.loggedIn === previous.loggedIn) return;
  snapshot = next;
  if (next.loggedIn) endReason = null;
  // Not ended here: a token still stored has run out; one removed by another tab went with a logout there.
  else if (previous.loggedIn && !ending) {
    endReason = announced ?? (next.token === null ? 'logout' : 'expired');
    announced = null;
  }
  listeners.forEach((listener) => listener());
  if (previous.loggedIn && !next.loggedIn) endListeners.forEach((listener) => listener());
}

/** SESSION-06: stores both tokens of a login or refresh answer. */
export function startSession(access: string, refresh: string): void {
  tokenStore.save(access, refresh);
  syncSession();
}

/** Says why the session is about to end, before the calls that end it (a logout call answered 401 is still a logout). */
export function announceSessionEnd(reason: SessionEndReason): void {
  announced = reason;
}

/**
 * Clears the session locally (no server call): after a 401, an expired token or a failed refresh (`expired`), or
 * after the logout call (`logout`); an announced reason comes first. Idempotent: once the tokens are gone, a second
 * call changes nothing.
 */
export function endSession(reason: SessionEndReason = 'expired'): void {
  const ending = tokenStore.access() !== null ? (announced ?? reason) : null;
  if (ending) announced = null;
  tokenStore.clear();
  update(ending);
}

/** SESSION-04, SESSION-05: checks the stored token now; an expired or undecodable one ends the session. */
export function checkSession(): boolean {
  syncSession();
  const current = read();
  if (current.token !== null && !current.loggedIn) endSession();
  return current.loggedIn;
}
