import { TOKEN_REFRESH_LEAD_S } from '../config/constants.ts';
import type { SessionClaims } from './claims.ts';
import { refreshSession } from './refreshSession.ts';
import { checkSession, sessionStore, syncSession } from './sessionStore.ts';
import { tokenStore } from './tokenStore.ts';

/** setTimeout's largest delay; a longer wait is simply rescheduled when it fires. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/** Seconds before exp to refresh: a minute, or half the lifetime of a short-lived token. */
function refreshLead(claims: SessionClaims): number {
  const lifetime = claims.iat === undefined ? Infinity : claims.exp - claims.iat;
  return Math.min(TOKEN_REFRESH_LEAD_S, Math.max(1, Math.floor(lifetime / 2)));
}

/**
 * Keeps the session current while the app runs: hears other tabs through the storage event, refreshes the
 * token shortly before exp, and ends the session at exp if no refresh happened (SESSION-04).
 * Returns the function that stops it all.
 */
export function runSession(): () => void {
  let timers: ReturnType<typeof setTimeout>[] = [];
  const schedule = () => {
    timers.forEach(clearTimeout);
    timers = [];
    const { claims, loggedIn } = sessionStore.get();
    if (!claims || !loggedIn) return;
    const now = Date.now();
    const expiresIn = claims.exp * 1000 - now;
    timers.push(setTimeout(checkSession, Math.min(expiresIn, MAX_DELAY_MS)));
    if (tokenStore.refresh()) {
      const refreshIn = expiresIn - refreshLead(claims) * 1000;
      timers.push(setTimeout(() => void refreshSession(), Math.max(0, Math.min(refreshIn, MAX_DELAY_MS))));
    }
  };
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === tokenStore.accessKey) syncSession();
  };
  window.addEventListener('storage', onStorage);
  const unsubscribe = sessionStore.subscribe(schedule);
  checkSession();
  schedule();
  return () => {
    window.removeEventListener('storage', onStorage);
    unsubscribe();
    timers.forEach(clearTimeout);
  };
}
