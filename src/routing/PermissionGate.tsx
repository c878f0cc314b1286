import type { ReactNode } from 'react';
import { usePermissions } from '../permissions/usePermissions.ts';
import type { Permissions } from '../permissions/types.ts';
import { LoginRedirect } from './LoginRedirect.tsx';
import { PageStatus } from './PageStatus.tsx';
import { useAuthenticated } from './useAuthenticated.ts';

export interface PermissionGateProps {
  /** What to render once permissions are loaded. */
  children: (permissions: Permissions | null) => ReactNode;
}

/**
 * What every module route waits behind: a logged-out visitor goes to /auth/login (so areas without a parent
 * guard never show data either, ROUTE-04), then the permissions load, then the route decides.
 */
export function PermissionGate({ children }: PermissionGateProps) {
  const authenticated = useAuthenticated();
  const { permissions, loaded, failed, reload } = usePermissions();
  if (!authenticated) return <LoginRedirect />;
  if (failed) {
    return (
      <div className="page-status" role="alert">
        <p>Your permissions could not be loaded.</p>
        <button type="button" className="button" onClick={() => void reload()}>
          Try again
        </button>
      </div>
    );
  }
  if (!loaded) return <PageStatus />;
  return <>{children(permissions)}</>;
}
