import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { AreaRoute, ModuleRoute } from '../generated/types.ts';
import { SCREENS } from '../screens/index.ts';

const screens = new Map<ModuleRoute, LazyExoticComponent<ComponentType>>();

/**
 * The screen of a module route as one lazy component: the area's chunk (ROUTE-06) for the resource whose module
 * matches, and the screen's own chunk, rendered with both.
 */
export function moduleScreen(area: AreaRoute, route: ModuleRoute): LazyExoticComponent<ComponentType> {
  let screen = screens.get(route);
  if (!screen) {
    screen = lazy(async () => {
      const [chunk, screenModule] = await Promise.all([area.load(), SCREENS[route.screen]()]);
      const resource = chunk.resources.find((candidate) => candidate.module === route.module);
      if (!resource) throw new Error(`The ${area.path} chunk describes no resource ${route.module}.`);
      const Screen = screenModule.default;
      return { default: () => <Screen resource={resource} route={route} /> };
    });
    screens.set(route, screen);
  }
  return screen;
}
