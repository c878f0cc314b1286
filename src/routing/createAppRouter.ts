import type { RouteObject } from 'react-router-dom';
import { AREAS } from '../generated/routes.ts';
import { followNavigationFocus } from '../shell/navigationFocus.ts';
import { createBrowserAppHistory, type AppHistory, type NavigationPreparation } from './appHistory.ts';
import { appRoutes } from './appRoutes.tsx';
import { prefetchRouteData, preloadRouteChunks } from './routeChunk.tsx';
import { sessionStore } from '../session/sessionStore.ts';

/** The longest a move waits for the next screen's data: slower data shows the screen with its loading state. */
const DATA_WAIT_MS = 250;

/** `promise`, or the end of `ms` if that comes first; null for no promise. */
function withCap(promise: Promise<void> | null, ms: number): Promise<void> | null {
  if (!promise) return null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cap = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([promise, cap]).finally(() => clearTimeout(timer));
}

/** What the console's router runs on: its history and its route table. */
export interface AppRouting {
  history: AppHistory;
  routes: RouteObject[];
  /** Settles when the route chunks of the address the console opened at are there. */
  firstChunks: Promise<void>;
}

/**
 * The console's routing from the generated route table, in the browser unless given another history: focus is
 * followed across navigations, and a link or navigate() changes the address once the next page's route chunks are
 * there and, for a signed-in user's move to another screen, its first data (back and forward, which the browser has
 * carried out already, start loading the chunks at once).
 */
export function createAppRouter(
  routes: RouteObject[] = appRoutes(AREAS),
  createHistory: (prepare: NavigationPreparation) => AppHistory = createBrowserAppHistory,
): AppRouting {
  const history = createHistory((nextLocation) => {
    const chunks = preloadRouteChunks(routes, nextLocation);
    // A signed-in user's move to another screen waits for its first data too, a moment at most: the screen then
    // renders once, complete, instead of empty and again when its rows arrive.
    if (nextLocation.pathname === history.location.pathname || !sessionStore.get().loggedIn) return chunks;
    const data = () => withCap(prefetchRouteData(routes, nextLocation), DATA_WAIT_MS);
    return chunks ? chunks.then(() => data() ?? undefined) : data();
  });
  followNavigationFocus(history);
  const firstChunks = preloadRouteChunks(routes, history.location) ?? Promise.resolve();
  history.listen(({ action, location }) => {
    if (action === 'POP') void preloadRouteChunks(routes, location);
  });
  return { history, routes, firstChunks };
}
