import { Outlet } from 'react-router-dom';
import { LoginRedirect } from './LoginRedirect.tsx';
import { useAuthenticated } from './useAuthenticated.ts';

/** The authentication guard (ROUTE-03, SESSION-09): logged-out visitors go to /auth/login. */
export function RequireAuth() {
  return useAuthenticated() ? <Outlet /> : <LoginRedirect />;
}
