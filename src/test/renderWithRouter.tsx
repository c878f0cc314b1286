import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router-dom';
import { createMemoryAppHistory } from '../routing/appHistory.ts';
import { AppRouter } from '../routing/AppRouter.tsx';

/** Renders `ui` at every path of the console's router in memory (with a fresh query client), starting at the last entry. */
export function renderWithRouter(ui: ReactNode, entries: string[] = ['/']) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return {
    client,
    ...renderRoutes([{ path: '*', element: <QueryClientProvider client={client}>{ui}</QueryClientProvider> }], entries),
  };
}

/** Renders a route table (the console's, or a test's own) in the console's router in memory, at the last entry. */
export function renderRoutes(
  routes: RouteObject[],
  entries: string[] = ['/'],
  wrap: (router: ReactNode) => ReactNode = (router) => router,
) {
  const history = createMemoryAppHistory(entries);
  return { history, ...render(wrap(<AppRouter history={history} routes={routes} />)) };
}
