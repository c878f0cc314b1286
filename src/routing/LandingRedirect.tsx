import { Navigate } from 'react-router-dom';
import { routablePaths } from '../permissions/defaultRoute.ts';
import { usePermissions } from '../permissions/usePermissions.ts';
import { useSession } from '../session/useSession.ts';
import { PageStatus } from './PageStatus.tsx';

/**
 * Sends a logged-in user to their landing path (ROUTE-15): the token's default_url, or, when it is missing or
 * unsafe, the first routable path of their permissions; with none at all, the 403 page.
 */
export function LandingRedirect() {
  const { landingPath } = useSession();
  const { permissions, loaded, failed } = usePermissions();
  if (landingPath) return <Navigate to={landingPath} replace />;
  if (!loaded && !failed) return <PageStatus />;
  return <Navigate to={routablePaths(permissions)[0] ?? '/403'} replace />;
}
