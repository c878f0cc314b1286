import type { AreaRoute, ModuleRoute } from '../generated/types.ts';
import { canAccess } from '../permissions/canAccess.ts';
import type { Permissions } from '../permissions/index.ts';

/** A screen Go anywhere offers: one the user may open, with no record in its path. */
export interface ScreenDestination {
  label: string;
  /** The area's label, shown beside the screen's and matched like it. */
  area: string;
  path: string;
}

const actionWords = (action: string) => action.replace(/_/g, ' ').toLowerCase();

/**
 * Every screen of the generated route table without a parameter that the user's permissions open: the same check
 * as the route guards, the sidebar and the area tabs (`canAccess`), in the table's order.
 */
export function reachableScreens(permissions: Permissions | null, areas: readonly AreaRoute[]): ScreenDestination[] {
  return areas.flatMap((area) =>
    area.layout === 'admin'
      ? area.routes
          .filter((route) => route.routable && canAccess(permissions, route.module, route.action))
          .map((route) => {
            const resource = area.resources.find((candidate) => candidate.module === route.module)?.label ?? area.label;
            return {
              label: route.action === 'view' ? resource : `${resource}: ${actionWords(route.action)}`,
              area: area.label,
              path: route.path,
            };
          })
      : [],
  );
}

/** The screens whose label and area together hold every word of `query`, ignoring case; all of them for no words. */
export function matchingScreens(screens: readonly ScreenDestination[], query: string): ScreenDestination[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return screens.filter((screen) => {
    const text = `${screen.label} ${screen.area}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

const opensRecord = (route: ModuleRoute) => route.path.includes('/:id');

/**
 * Where a found record opens: its module's detail screen, or its edit screen when it has no detail screen (or the
 * user may not open it); null when the user may open neither.
 */
export function recordPath(
  permissions: Permissions | null,
  areas: readonly AreaRoute[],
  module: string,
  id: number,
): string | null {
  const routes = areas
    .flatMap((area) => area.routes)
    .filter(
      (route) => route.module === module && opensRecord(route) && canAccess(permissions, route.module, route.action),
    );
  const chosen = routes.find((route) => route.screen !== 'form') ?? routes.find((route) => route.screen === 'form');
  return chosen ? chosen.path.replace(':id', encodeURIComponent(String(id))) : null;
}
