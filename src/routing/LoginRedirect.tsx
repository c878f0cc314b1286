import { Navigate, useLocation } from 'react-router-dom';
import { LOGIN_PATH } from '../config/constants.ts';
import { returnQuery, type LoginState } from '../session/landingPath.ts';
import { sessionStore } from '../session/sessionStore.ts';

/**
 * Sends a logged-out visitor to /auth/login (ROUTE-03, SESSION-09), to come back to the page they asked for once
 * signed in, and saying so when their session expired. After a plain logout they start afresh.
 */
export function LoginRedirect() {
  const { pathname, search } = useLocation();
  const reason = sessionStore.endReason();
  if (reason === 'logout') return <Navigate to={LOGIN_PATH} replace />;
  const state: LoginState | null = reason === 'expired' ? { sessionExpired: true } : null;
  return <Navigate to={{ pathname: LOGIN_PATH, search: returnQuery(`${pathname}${search}`) }} state={state} replace />;
}
