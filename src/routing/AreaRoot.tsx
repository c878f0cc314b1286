import { Navigate, useLocation } from 'react-router-dom';
import { defaultRoute } from '../permissions/defaultRoute.ts';
import { PermissionGate } from './PermissionGate.tsx';

/** An area root such as /voucher-management: the user's default route under it (ROUTE-12..14), else 403. */
export function AreaRoot() {
  const { pathname } = useLocation();
  return (
    <PermissionGate>
      {(permissions) => {
        const target = defaultRoute(permissions, pathname);
        const elsewhere = target !== null && target.replace(/\/+$/, '') !== pathname.replace(/\/+$/, '');
        return <Navigate to={elsewhere ? target : '/403'} replace />;
      }}
    </PermissionGate>
  );
}
