import { lazy, type ComponentType } from 'react';
import { matchRoutes, type Location, type RouteObject } from 'react-router-dom';

/** The `handle` of a route whose screen is a chunk of its own. */
interface ChunkHandle {
  preload: () => Promise<unknown>;
}

/**
 * A route whose screen is a chunk of its own (LAYOUT-01, ROUTE-02): rendered lazily (RootFrame suspends while it
 * loads), and fetched by `preloadRouteChunks` as soon as the address matches, so that a layout's chunk and its
 * screen's load side by side instead of one after the other.
 */
export function chunkRoute<Module>(load: () => Promise<Module>, pick: (module: Module) => ComponentType, route: Pick<RouteObject, 'path' | 'children'> | { index: true } = {}): RouteObject {
  const Screen = lazy(() => load().then((module) => ({ default: pick(module) })));
  const handle: ChunkHandle = { preload: load };
  return { ...route, element: <Screen />, handle };
}

/** Starts loading the chunks of every route matching `location` (a failure surfaces when the route renders). */
export function preloadRouteChunks(routes: RouteObject[], location: Partial<Location>): void {
  for (const match of matchRoutes(routes, location) ?? []) {
    const handle = match.route.handle as ChunkHandle | undefined;
    void handle?.preload().catch(() => undefined);
  }
}
