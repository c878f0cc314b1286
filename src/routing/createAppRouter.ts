import type { RouteObject } from 'react-router-dom';
import { AREAS } from '../generated/routes.ts';
import { followNavigationFocus } from '../shell/navigationFocus.ts';
import { createBrowserAppHistory, type AppHistory, type NavigationPreparation } from './appHistory.ts';
import { appRoutes } from './appRoutes.tsx';
import { preloadRouteChunks } from './routeChunk.tsx';

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
 * there (back and forward, which the browser has carried out already, start loading them at once).
 */
export function createAppRouter(
  routes: RouteObject[] = appRoutes(AREAS),
  createHistory: (prepare: NavigationPreparation) => AppHistory = createBrowserAppHistory,
): AppRouting {
  const history = createHistory((nextLocation) => preloadRouteChunks(routes, nextLocation));
  followNavigationFocus(history);
  const firstChunks = preloadRouteChunks(routes, history.location) ?? Promise.resolve();
  history.listen(({ action, location }) => {
    if (action === 'POP') void preloadRouteChunks(routes, location);
  });
  return { history, routes, firstChunks };
}
