import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { http as mock, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { ComponentType } from 'react';
import { config } from '../../config/index.ts';
import type { ActionName, ModuleKey } from '../../generated/permissions.ts';
import type { ModuleRoute, ResourceDescription } from '../../generated/types.ts';
import { permissionStore } from '../../permissions/index.ts';
import { createMemoryAppHistory } from '../../routing/appHistory.ts';
import { AppRouter } from '../../routing/AppRouter.tsx';
import { startSession } from '../../session/index.ts';
import type { ScreenProps } from '../ScreenProps.ts';

/** Tests only: the API as msw answers it, under the console's configured base. */
export const api = (path: string) => `*${config.apiBaseUrl}${path}`;

/** Tests only: a list's saved views and settings as a user without any has them; a test may answer others. */
export const NO_VIEWS = { views: [], preferences: { columns: null, default_view_id: null, dropped: [] }, share_roles: [] };

export const server = setupServer(mock.get(api('views/*'), () => HttpResponse.json({ data: NO_VIEWS })));

/** Tests only: a signed-in session with these permissions (GET user/permission answers them). */
export function signInWith(grants: Partial<Record<ModuleKey, ActionName[]>>) {
  const payload = btoa(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600, first_name: 'Asha', last_name: 'Rao' }))
    .replace(/=+$/, '')
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
  startSession(`eyJhbGciOiJIUzI1NiJ9.${payload}.signature`, 'refresh-token');
  permissionStore.clear();
  const data = Object.fromEntries(
    Object.entries(grants).map(([module, actions], order) => [module, { order, actions: Object.fromEntries((actions ?? []).map((action) => [action, { is_routable: false, route_url: '' }])) }]),
  );
  server.use(mock.get(api('user/permission'), () => HttpResponse.json({ data })));
}

export interface RenderScreenOptions {
  resource: ResourceDescription;
  route: ModuleRoute;
  /** The address the screen opens at; defaults to the route's path. */
  at?: string;
}

/** Tests only: a screen in the console's router in memory (so navigation guards work) with a query client, beside its list route. */
export function renderScreen(Screen: ComponentType<ScreenProps>, { resource, route, at = route.path }: RenderScreenOptions) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const listPath = resource.routes.view;
  const routes = [
    { path: route.path, element: <Screen resource={resource} route={route} /> },
    ...(listPath && listPath !== route.path ? [{ path: listPath, element: <h1>{resource.label} list</h1> }] : []),
    { path: '*', element: <h1>Elsewhere</h1> },
  ];
  const history = createMemoryAppHistory([at]);
  const view = render(
    <QueryClientProvider client={queryClient}>
      <AppRouter history={history} routes={routes} />
    </QueryClientProvider>,
  );
  return { ...view, history, queryClient };
}

/** Tests only: the route of a resource's action from the generated description. */
export function routeOf(resource: ResourceDescription, action: ActionName, screen: ModuleRoute['screen']): ModuleRoute {
  const path = resource.routes[action];
  if (!path) throw new Error(`${resource.module} has no ${action} route`);
  return { module: resource.module, action, path, routable: !path.includes(':'), screen };
}
