import { Navigate, useLocation } from 'react-router-dom';
import { routablePaths } from '../permissions/defaultRoute.ts';
import { usePermissions } from '../permissions/usePermissions.ts';
import { returnPath } from '../session/landingPath.ts';
import { useSession } from '../session/useSession.ts';
import { PageStatus } from './PageStatus.tsx';

/**
 * Sends a logged-in user back to the page they asked for before signing in (the login address's safe in-app
 * return path), else to their landing path (ROUTE-15): the token's default_url, or, when it is missing or unsafe,
 * the first routable path of their permissions; with none at all, the 403 page.
 */
export function LandingRedirect() {
  const { landingPath } = useSession();
  const { permissions, loaded, failed } = usePermissions();
  const asked = returnPath(useLocation().search);
  if (asked) return <Navigate to={asked} replace />;
  if (landingPath) return <Navigate to={landingPath} replace />;
  if (!loaded && !failed) return <PageStatus />;
  return <Navigate to={routablePaths(permissions)[0] ?? '/403'} replace />;
}
