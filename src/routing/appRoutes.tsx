import { Suspense } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import { HOME_PATH } from '../../contract/homePath.ts';
import type { AreaRoute } from '../generated/types.ts';
import { ErrorPage } from '../shell/ErrorPage.tsx';
import { loadAdminLayout } from './adminLayout.ts';
import { AreaRoot } from './AreaRoot.tsx';
import { ErrorFrame } from './ErrorFrame.tsx';
import { GuestOnly } from './GuestOnly.tsx';
import { ModuleRouteElement } from './ModuleRouteElement.tsx';
import { moduleScreenHandle } from './moduleScreen.tsx';
import { PageStatus } from './PageStatus.tsx';
import { RequireAuth } from './RequireAuth.tsx';
import { RootFrame } from './RootFrame.tsx';
import { chunkRoute, preloadRouteChunks } from './routeChunk.tsx';
import { RouteErrorBoundary } from './RouteErrorBoundary.tsx';

const guestLayout = () => import('../layout/GuestLayout.tsx');
const pickGuestLayout = (module: Awaited<ReturnType<typeof guestLayout>>) => module.GuestLayout;

/** The guest area: login-type screens, each its own chunk (LAYOUT-01, ROUTE-02). */
const authRoute: RouteObject = {
  path: 'auth',
  element: <GuestOnly />,
  children: [
    chunkRoute(guestLayout, pickGuestLayout, {
      children: [
        { index: true, element: <Navigate to="login" replace /> },
        chunkRoute(
          () => import('../auth/LoginScreen.tsx'),
          (module) => module.LoginScreen,
          { path: 'login' },
        ),
        chunkRoute(
          () => import('../auth/ForgotPasswordScreen.tsx'),
          (module) => module.ForgotPasswordScreen,
          { path: 'forgot-password' },
        ),
        chunkRoute(
          () => import('../auth/ResetPasswordScreen.tsx'),
          (module) => module.ResetPasswordScreen,
          { path: 'reset-password' },
        ),
        chunkRoute(
          () => import('../auth/VerifyEmailScreen.tsx'),
          (module) => module.VerifyEmailScreen,
          { path: 'verify-email' },
        ),
      ],
    }),
  ],
};

/**
 * The development mailbox (/dev/mailbox) for anyone, signed in or not, in development builds only: with
 * `__DEV_MAILBOX__` false (vite.config.ts) this returns nothing, and the screen's chunk is not built.
 */
function devMailboxRoutes(): RouteObject[] {
  if (!__DEV_MAILBOX__) return [];
  const mailbox = chunkRoute(
    () => import('../devMailbox/DevMailboxScreen.tsx'),
    (module) => module.DevMailboxScreen,
    { index: true },
  );
  return [chunkRoute(guestLayout, pickGuestLayout, { path: 'dev/mailbox', children: [mailbox] })];
}

/** One admin area: its guard (ROUTE-03), its root resolving to the default route, its guarded module routes. */
function areaRoute(area: AreaRoute): RouteObject {
  const prefix = `/${area.path}`;
  const routes: RouteObject[] = area.routes.map((route) => {
    const relative = route.path.slice(prefix.length).replace(/^\//, '');
    const element = <ModuleRouteElement area={area} route={route} />;
    const handle = moduleScreenHandle(area, route);
    return relative === '' ? { index: true, element, handle } : { path: relative, element, handle };
  });
  if (!routes.some((route) => route.index)) routes.unshift({ index: true, element: <AreaRoot /> });
  return area.guard === 'authenticated'
    ? { path: area.path, element: <RequireAuth />, children: routes }
    : { path: area.path, children: routes };
}

/** The home screen (a route of its own beside the generated areas), for any signed-in user; it decides who has one. */
const homeRoute: RouteObject = {
  path: HOME_PATH.slice(1),
  element: <RequireAuth />,
  children: [
    chunkRoute(
      () => import('../screens/custom/home/HomeScreen.tsx'),
      (module) => module.HomeScreen,
      { index: true },
      (module) => module.prefetch,
    ),
  ],
};

/** The whole route table of the console, built from the generated areas. */
export function appRoutes(areas: readonly AreaRoute[]): RouteObject[] {
  const preloadHome = () => preloadRouteChunks(routes, { pathname: HOME_PATH });
  const routes: RouteObject[] = [
    {
      // The status shows while a screen's chunks load and nothing is on screen yet; RootFrame and its effects (the
      // preloading of the home screen, then of flagged areas) wait for the first screen. A navigation keeps the page it
      // leaves meanwhile.
      element: (
        <RouteErrorBoundary>
          <Suspense fallback={<PageStatus />}>
            <RootFrame areas={areas} preloadHome={preloadHome} />
          </Suspense>
        </RouteErrorBoundary>
      ),
      children: [
        { index: true, element: <Navigate to="/auth" replace /> },
        authRoute,
        ...devMailboxRoutes(),
        chunkRoute(loadAdminLayout, (module) => module.AdminLayout, {
          children: [homeRoute, ...areas.filter((area) => area.layout === 'admin').map(areaRoute)],
        }),
        {
          element: <ErrorFrame />,
          children: [
            { path: '403', element: <ErrorPage status={403} /> },
            { path: '404', element: <ErrorPage status={404} /> },
            { path: '*', element: <ErrorPage status={404} /> },
          ],
        },
      ],
    },
  ];
  return routes;
}
