import { Navigate, useLocation } from 'react-router-dom';
import { defaultRoute } from '../permissions/defaultRoute.ts';
import { ErrorPage } from '../shell/ErrorPage.tsx';
import { PermissionGate } from './PermissionGate.tsx';

/** An area root such as /voucher-management: the user's default route under it (ROUTE-12..14), else 403 in place. */
export function AreaRoot() {
  const { pathname } = useLocation();
  return (
    <PermissionGate>
      {(permissions) => {
        const target = defaultRoute(permissions, pathname);
        const elsewhere = target !== null && target.replace(/\/+$/, '') !== pathname.replace(/\/+$/, '');
        return elsewhere ? <Navigate to={target} replace /> : <ErrorPage status={403} />;
      }}
    </PermissionGate>
  );
}
