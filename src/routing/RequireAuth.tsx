import { Navigate, Outlet } from 'react-router-dom';
import { LOGIN_PATH } from '../config/constants.ts';
import { useAuthenticated } from './useAuthenticated.ts';

/** The authentication guard (ROUTE-03, SESSION-09): logged-out visitors go to /auth/login. */
export function RequireAuth() {
  return useAuthenticated() ? <Outlet /> : <Navigate to={LOGIN_PATH} replace />;
}
