import type { RouteObject } from 'react-router-dom';
import { AREAS } from '../generated/routes.ts';
import { followNavigationFocus } from '../shell/navigationFocus.ts';
import { createBrowserAppHistory, type AppHistory } from './appHistory.ts';
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
 * followed across navigations, and each address's route chunks start loading as soon as it is reached.
 */
export function createAppRouter(history: AppHistory = createBrowserAppHistory(), routes: RouteObject[] = appRoutes(AREAS)): AppRouting {
  followNavigationFocus(history);
  const firstChunks = preloadRouteChunks(routes, history.location);
  history.listen(({ location }) => void preloadRouteChunks(routes, location));
  return { history, routes, firstChunks };
}
