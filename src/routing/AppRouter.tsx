import { useMemo } from 'react';
import {
  unstable_HistoryRouter as HistoryRouter,
  renderMatches,
  useLocation,
  type RouteObject,
} from 'react-router-dom';
import type { AppHistory } from './appHistory.ts';
import { AppHistoryContext } from './appHistoryContext.ts';
import { encodedMatches, matchAppRoutes } from './routeMatches.ts';

export interface AppRouterProps {
  history: AppHistory;
  routes: RouteObject[];
}

/**
 * React Router's declarative router on the console's own history (the data router is twice the initial JS; see the
 * README's stack note): the routes for the address, with the history in context for navigation guards.
 */
export function AppRouter({ history, routes }: AppRouterProps) {
  return (
    <AppHistoryContext value={history}>
      <HistoryRouter history={history}>
        <RouteTable routes={routes} history={history} />
      </HistoryRouter>
    </AppHistoryContext>
  );
}

/** What useRoutes(routes) renders, from the matches the navigation's preparation found already (routeMatches.ts). */
function RouteTable({ routes, history }: AppRouterProps) {
  const { pathname } = useLocation();
  const matches = useMemo(
    () => encodedMatches(matchAppRoutes(routes, pathname), (to) => history.encodeLocation(to)),
    [routes, pathname, history],
  );
  return renderMatches(matches);
}
