import { Outlet } from 'react-router-dom';
import { LandingRedirect } from './LandingRedirect.tsx';
import { useAuthenticated } from './useAuthenticated.ts';

/** The guest-only guard (ROUTE-02, SESSION-09): a logged-in user is sent to their landing path. */
export function GuestOnly() {
  return useAuthenticated() ? <LandingRedirect /> : <Outlet />;
}
