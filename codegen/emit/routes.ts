import type { ProjectModel } from '../../contract/description.ts';
import { literal, tsHeader } from './header.ts';

/**
 * src/generated/routes.ts: the route table, area → module → action → path, guard and screen, and each area's
 * resources with the path of their list (or other view screen), for the navigation inside the area.
 */
export function emitRoutes(model: ProjectModel): string {
  const areas = model.areas.map((area) => {
    const routes = area.resources.flatMap((resource) =>
      resource.routes.map((route) => ({ module: resource.key, action: route.action, path: route.path, routable: route.routable, screen: route.screen })),
    );
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
    load: () => import('./areas/${area.path}.ts').then((chunk) => chunk.default),
  },`;
  });
  return `${tsHeader()}
import type { AreaRoute } from './types.ts';

export const AREAS: readonly AreaRoute[] = [
${areas.join('\n')}
];
`;
}
