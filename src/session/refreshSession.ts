import { http } from '../http/http.ts';
import { endSession, startSession, syncSession } from './sessionStore.ts';
import { tokenStore } from './tokenStore.ts';

interface TokenPair {
  data: { access: string; refresh: string };
}

const LOCK_NAME = 'admin-console-token-refresh';
let inFlight: Promise<void> | null = null;

/**
 * Swaps the refresh token for a new pair before the access token expires. One refresh runs across all tabs
 * (the server treats a reused refresh token as theft): the Web Lock serialises the tabs, and a tab that gets
 * the lock after another one refreshed finds a new token in storage and stops there.
 */
export function refreshSession(): Promise<void> {
  inFlight ??= refreshOnce(tokenStore.access()).finally(() => {
    inFlight = null;
  });
  return inFlight;
}

async function refreshOnce(staleAccess: string | null): Promise<void> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (locks) await locks.request(LOCK_NAME, () => refreshUnlessDone(staleAccess));
  else await refreshUnlessDone(staleAccess);
}

async function refreshUnlessDone(staleAccess: string | null): Promise<void> {
  const access = tokenStore.access();
  if (access !== staleAccess) {
    // Another tab refreshed (or logged out) while this one waited for the lock.
    return syncSession();
  }
  const refresh = tokenStore.refresh();
  if (!refresh) return endSession();
  try {
    const answer = await http.post<TokenPair>('token/refresh', { refresh }, { loader: false });
    startSession(answer.data.access, answer.data.refresh);
  } catch {
    endSession();
  }
}
