import { Suspense } from 'react';
import type { AreaRoute, ModuleRoute } from '../generated/types.ts';
import { canAccess } from '../permissions/canAccess.ts';
import { ErrorPage } from '../shell/ErrorPage.tsx';
import { ModuleScreen } from './moduleScreen.tsx';
import { PageStatus } from './PageStatus.tsx';
import { PermissionGate } from './PermissionGate.tsx';

export interface ModuleRouteElementProps {
  area: AreaRoute;
  route: ModuleRoute;
}

/**
 * A module route behind its permission guard (PERM-10): denied by default, the 403 page at the address asked for,
 * never the screen. A trash also needs delete: restoring and deleting for good are its only actions.
 */
export function ModuleRouteElement({ area, route }: ModuleRouteElementProps) {
  return (
    <PermissionGate>
      {(permissions) => {
        const allowed =
          canAccess(permissions, route.module, route.action) &&
          (route.screen !== 'trash' || canAccess(permissions, route.module, 'delete'));
        if (!allowed) return <ErrorPage status={403} />;
        return (
          <Suspense fallback={<PageStatus />}>
            <ModuleScreen key={route.path} area={area} route={route} />
          </Suspense>
        );
      }}
    </PermissionGate>
  );
}
