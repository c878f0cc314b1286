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

interface ViewsPageData {
  views: unknown[];
  preferences: { columns: string[] | null; default_view_id: number | null; dropped: string[] };
  share_roles: { id: number; name: string }[];
}

/** Tests only: a list's saved views and settings as a user without any has them; a test may answer others. */
const NO_VIEWS: ViewsPageData = {
  views: [],
  preferences: { columns: null, default_view_id: null, dropped: [] },
  share_roles: [],
};

/** Tests only: a page of `GET views/<list>`: NO_VIEWS with what `data` names, and its meta (by default, the only page). */
export function viewsAnswer(
  data: Partial<ViewsPageData> = {},
  meta: Partial<{ total: number; page: number; page_size: number }> = {},
) {
  const page = { ...NO_VIEWS, ...data };
  return { data: page, meta: { total: page.views.length, page: 1, page_size: 100, ...meta } };
}

export const server = setupServer(mock.get(api('views/*'), () => HttpResponse.json(viewsAnswer())));

/** Tests only: a signed-in session with these permissions (GET user/permission answers them). */
export function signInWith(grants: Partial<Record<ModuleKey, ActionName[]>>) {
  const payload = btoa(
    JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600, first_name: 'Asha', last_name: 'Rao' }),
  )
    .replace(/=+$/, '')
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
  startSession(`eyJhbGciOiJIUzI1NiJ9.${payload}.signature`, 'refresh-token');
  permissionStore.clear();
  const data = Object.fromEntries(
    Object.entries(grants).map(([module, actions], order) => [
      module,
      {
        order,
        actions: Object.fromEntries((actions ?? []).map((action) => [action, { is_routable: false, route_url: '' }])),
      },
    ]),
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
export function renderScreen(
  Screen: ComponentType<ScreenProps>,
  { resource, route, at = route.path }: RenderScreenOptions,
) {
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
