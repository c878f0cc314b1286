import { useState, type ComponentType } from 'react';
import type { Location } from 'react-router-dom';
import type { AreaRoute, ModuleRoute } from '../generated/types.ts';
import { loadScreen } from '../screens/loadScreen.ts';
import { loadOnce, suspendedComponent } from './retriedChunk.tsx';

interface ModuleScreenEntry {
  /** The screen with its resource, once the area's chunk and the screen's are there. */
  Screen: ComponentType | undefined;
  /** Loads both chunks once (again after a failure); settles with the screen. */
  preload: () => Promise<ComponentType>;
  /** Starts the screen's first data for an address's query, once its chunks are there (see ScreenPrefetch). */
  prefetch: ((search: URLSearchParams) => Promise<void> | undefined) | undefined;
  /** Suspends until the chunks are there. */
  Lazy: ComponentType;
}

const entries = new Map<ModuleRoute, ModuleScreenEntry>();

/**
 * The screen of a module route: the area's chunk (ROUTE-06) for the resource whose module matches, and the screen's
 * own chunk, rendered with both.
 */
function entryOf(area: AreaRoute, route: ModuleRoute): ModuleScreenEntry {
  const known = entries.get(route);
  if (known) return known;
  const preload = loadOnce(() =>
    Promise.all([area.load(), loadScreen(route.screen)]).then(([chunk, screenModule]) => {
      const resource = chunk.resources.find((candidate) => candidate.module === route.module);
      if (!resource) throw new Error(`The ${area.path} chunk describes no resource ${route.module}.`);
      const Screen = screenModule.default;
      const prefetch = screenModule.prefetch;
      if (prefetch) entry.prefetch = (search) => prefetch(resource, search);
      return (entry.Screen = () => <Screen resource={resource} route={route} />);
    }),
  );
  const entry: ModuleScreenEntry = {
    Screen: undefined,
    prefetch: undefined,
    preload,
    Lazy: suspendedComponent(preload),
  };
  entries.set(route, entry);
  return entry;
}

/**
 * A module route's screen. Once its chunks are there (the navigation waits for them, see `moduleScreenHandle`) it
 * renders at once; before, it suspends on its first render even when the chunks have arrived, and React reveals
 * suspended content at a throttled pace (300 ms). Chosen once per mount, so that a re-render never swaps one for the
 * other and loses the screen's state; give it the route's path as its key.
 */
export function ModuleScreen({ area, route }: { area: AreaRoute; route: ModuleRoute }) {
  const entry = entryOf(area, route);
  const [Screen] = useState(() => entry.Screen ?? entry.Lazy);
  return <Screen />;
}

/** The handle of a module route, so that its chunks load, and its data starts, before the address changes. */
export function moduleScreenHandle(area: AreaRoute, route: ModuleRoute) {
  const entry = entryOf(area, route);
  return {
    preload: entry.preload,
    loaded: () => entry.Screen !== undefined,
    prefetch: (location: Partial<Location>) => entry.prefetch?.(new URLSearchParams(location.search)),
  };
}
