import { lazy, type ComponentType } from 'react';
import { matchRoutes, type Location, type RouteObject } from 'react-router-dom';

/** The `handle` of a route whose screen is a chunk of its own. */
interface ChunkHandle {
  preload: () => Promise<unknown>;
}

/**
 * A route whose screen is a chunk of its own (LAYOUT-01, ROUTE-02), fetched by `preloadRouteChunks` as soon as the
 * address matches, so that a layout's chunk and its screen's load side by side instead of one after the other. Once
 * the chunk is there the screen renders at once; before, it is a lazy component (which suspends on its first render
 * even when its chunk has arrived, and React reveals suspended content at a throttled pace).
 */
export function chunkRoute<Module>(load: () => Promise<Module>, pick: (module: Module) => ComponentType, route: Pick<RouteObject, 'path' | 'children'> | { index: true } = {}): RouteObject {
  let Screen: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const preload = () => (loading ??= load().then((module) => (Screen = pick(module))));
  const LazyScreen = lazy(() => preload().then((loaded) => ({ default: loaded })));
  function ChunkScreen() {
    return Screen ? <Screen /> : <LazyScreen />;
  }
  const handle: ChunkHandle = { preload };
  return { ...route, element: <ChunkScreen />, handle };
}

/**
 * Starts loading the chunks of every route matching `location`; settles once they are all there. A failure surfaces
 * when the route renders.
 */
export function preloadRouteChunks(routes: RouteObject[], location: Partial<Location>): Promise<void> {
  const loads = (matchRoutes(routes, location) ?? []).map((match) => (match.route.handle as ChunkHandle | undefined)?.preload());
  return Promise.all(loads.map((load) => load?.catch(() => undefined))).then(() => undefined);
}
