import type { ComponentType } from 'react';
import type { Location, RouteObject } from 'react-router-dom';
import { loadOnce, suspendedComponent } from './retriedChunk.tsx';
import { matchAppRoutes } from './routeMatches.ts';

/** The `handle` of a route whose screen is a chunk of its own. */
interface ChunkHandle {
  preload: () => Promise<unknown>;
  loaded: () => boolean;
  /** Starts loading the data the screen shows first at this address (its chunks are there); settles when it is there. */
  prefetch?: (location: Partial<Location>) => Promise<void> | undefined;
}

/**
 * A route whose screen is a chunk of its own (LAYOUT-01, ROUTE-02), fetched by `preloadRouteChunks` as soon as the
 * address matches, so that a layout's chunk and its screen's load side by side instead of one after the other. Once
 * the chunk is there the screen renders at once; before, it suspends (on its first render even when its chunk has
 * arrived, and React reveals suspended content at a throttled pace). A chunk that failed is fetched again next time.
 */
export function chunkRoute<Module>(
  load: () => Promise<Module>,
  pick: (module: Module) => ComponentType,
  route: Pick<RouteObject, 'path' | 'children'> | { index: true } = {},
  pickPrefetch?: (module: Module) => ChunkHandle['prefetch'],
): RouteObject {
  let Screen: ComponentType | undefined;
  let prefetch: ChunkHandle['prefetch'];
  const preload = loadOnce(() =>
    load().then((module) => {
      prefetch = pickPrefetch?.(module);
      return (Screen = pick(module));
    }),
  );
  const LazyScreen = suspendedComponent(preload);
  function ChunkScreen() {
    return Screen ? <Screen /> : <LazyScreen />;
  }
  const handle: ChunkHandle = {
    preload,
    loaded: () => Screen !== undefined,
    prefetch: (location) => prefetch?.(location),
  };
  return { ...route, element: <ChunkScreen />, handle };
}

/**
 * Starts loading the chunks of every route matching `location` that are not there yet; settles once they are, or is
 * null when none was missing. A failure surfaces when the route renders.
 */
export function preloadRouteChunks(routes: RouteObject[], location: Partial<Location>): Promise<void> | null {
  const missing = (matchAppRoutes(routes, location.pathname ?? '/') ?? [])
    .map((match) => match.route.handle as ChunkHandle | undefined)
    .filter((handle): handle is ChunkHandle => handle !== undefined && !handle.loaded());
  if (missing.length === 0) return null;
  return Promise.all(missing.map((handle) => handle.preload().catch(() => undefined))).then(() => undefined);
}

/**
 * Starts loading, for every route matching `location` whose chunks are there, the data its screen shows first;
 * settles when it is there, or is null when there was none to load.
 */
export function prefetchRouteData(routes: RouteObject[], location: Partial<Location>): Promise<void> | null {
  const loading = (matchAppRoutes(routes, location.pathname ?? '/') ?? []).flatMap((match) => {
    const handle = match.route.handle as ChunkHandle | undefined;
    const data = handle?.loaded() ? handle.prefetch?.(location) : undefined;
    return data ? [data] : [];
  });
  return loading.length > 0 ? Promise.all(loading).then(() => undefined) : null;
}
