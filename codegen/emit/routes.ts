import type { ProjectModel, ResourceModel } from '../../contract/description.ts';
import { trashPath } from '../../contract/trashPath.ts';
import { literal, tsHeader } from './header.ts';

/**
 * src/generated/routes.ts: the route table, area → module → action → path, guard and screen, and each area's
 * resources with the path of their list (or other view screen), for the navigation inside the area. A resource whose
 * deletes go to its trash (`softDelete`) and whose list is the generic one also gets its trash screen, guarded by view.
 */
export function emitRoutes(model: ProjectModel): string {
  const areas = model.areas.map((area) => {
    const routes = area.resources.flatMap((resource) => [
      ...resource.routes.map((route) => ({
        module: resource.key,
        action: route.action,
        path: route.path,
        routable: route.routable,
        screen: route.screen,
      })),
      ...trashRoutes(resource),
    ]);
    const resources = area.resources.flatMap((resource) => {
      const view = resource.routes.find((route) => route.action === 'view' && route.routable);
      return view ? [{ module: resource.key, label: resource.label, path: view.path }] : [];
    });
    return `  {
    module: '${area.key}',
    label: ${JSON.stringify(area.label)},
    path: '${area.path}',
    guard: '${area.guard}',
    layout: '${area.layout}',
    preload: ${area.preload || area.resources.some((resource) => resource.preload)},
    routes: ${literal(routes, 4)},
    resources: ${literal(resources, 4)},
    load: () => import('./areas/${area.path}.ts').then(joinArea),
  },`;
  });
  return `${tsHeader()}
import { joinArea } from '../routing/areaModule.ts';
import type { AreaRoute } from './types.ts';

export const AREAS: readonly AreaRoute[] = [
${areas.join('\n')}
];
`;
}

/** The trash screen beside a generic list; not routable, so never a landing path. */
function trashRoutes(resource: ResourceModel) {
  const list = resource.routes.find((route) => route.action === 'view' && route.screen === 'list');
  if (!list || !resource.entity?.softDelete) return [];
  return [{ module: resource.key, action: list.action, path: trashPath(list.path), routable: false, screen: 'trash' }];
}
