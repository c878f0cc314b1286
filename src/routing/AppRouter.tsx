import { unstable_HistoryRouter as HistoryRouter, useRoutes, type RouteObject } from 'react-router-dom';
import type { AppHistory } from './appHistory.ts';
import { AppHistoryContext } from './appHistoryContext.ts';

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
        <RouteTable routes={routes} />
      </HistoryRouter>
    </AppHistoryContext>
  );
}

function RouteTable({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}
