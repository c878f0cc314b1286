export { useSession, type UseSessionResult } from './useSession.ts';
export type { SessionUser } from './sessionUser.ts';
export type { SessionClaims } from './claims.ts';
export { decodeClaims, isExpired } from './claims.ts';
export { tokenStore } from './tokenStore.ts';
export {
  sessionStore,
  startSession,
  endSession,
  checkSession,
  type SessionSnapshot,
  type SessionEndReason,
} from './sessionStore.ts';
export { logout } from './logout.ts';
export { refreshSession } from './refreshSession.ts';
export { runSession } from './sessionTimers.ts';
export { landingPath, returnPath, returnQuery, safeAppPath } from './landingPath.ts';
