import { useEffect, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router-dom';
import { isExpired } from '../session/claims.ts';
import { enrolmentStore } from '../session/enrolmentStore.ts';
import { checkSession, sessionStore } from '../session/sessionStore.ts';

/**
 * Whether the visitor is logged in right now. A guard checks the stored token on every navigation, and a token
 * that expired since the last check counts as logged out at once while the session is ended (SESSION-04). A session
 * that must enrol a second factor first counts as logged out too: the guards send it to the sign-in screen, which
 * shows the enrolment, and back once a factor is enrolled.
 */
export function useAuthenticated(): boolean {
  const { pathname } = useLocation();
  const { claims, loggedIn } = useSyncExternalStore(sessionStore.subscribe, sessionStore.get);
  const enrolling = useSyncExternalStore(enrolmentStore.subscribe, enrolmentStore.get);
  const authenticated = loggedIn && claims !== null && !isExpired(claims) && !enrolling;
  useEffect(() => {
    checkSession();
  }, [pathname, authenticated]);
  return authenticated;
}
