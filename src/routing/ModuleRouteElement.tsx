import { Suspense } from 'react';
import { Navigate } from 'react-router-dom';
import type { AreaRoute, ModuleRoute } from '../generated/types.ts';
import { canAccess } from '../permissions/canAccess.ts';
import { ModuleScreen } from './moduleScreen.tsx';
import { PageStatus } from './PageStatus.tsx';
import { PermissionGate } from './PermissionGate.tsx';

export interface ModuleRouteElementProps {
  area: AreaRoute;
  route: ModuleRoute;
}

/** A module route behind its permission guard (PERM-10): denied by default, the 403 page, never the screen. */
export function ModuleRouteElement({ area, route }: ModuleRouteElementProps) {
  return (
    <PermissionGate>
      {(permissions) => {
        if (!canAccess(permissions, route.module, route.action)) return <Navigate to="/403" replace />;
        return (
          <Suspense fallback={<PageStatus />}>
            <ModuleScreen key={route.path} area={area} route={route} />
          </Suspense>
        );
      }}
    </PermissionGate>
  );
}
