import { Navigate, type RouteObject } from 'react-router-dom';
import type { AreaRoute } from '../generated/types.ts';
import { ErrorPage } from '../shell/ErrorPage.tsx';
import { loadAdminLayout } from './adminLayout.ts';
import { AreaRoot } from './AreaRoot.tsx';
import { ErrorFrame } from './ErrorFrame.tsx';
import { GuestOnly } from './GuestOnly.tsx';
import { ModuleRouteElement } from './ModuleRouteElement.tsx';
import { PageStatus } from './PageStatus.tsx';
import { RequireAuth } from './RequireAuth.tsx';
import { RootFrame } from './RootFrame.tsx';
import { RouteError } from './RouteError.tsx';

/** The guest area: login-type screens, each its own chunk (LAYOUT-01, ROUTE-02). */
const authRoute: RouteObject = {
  path: 'auth',
  element: <GuestOnly />,
  children: [
    {
      lazy: () => import('../layout/GuestLayout.tsx').then((module) => ({ Component: module.GuestLayout })),
      children: [
        { index: true, element: <Navigate to="login" replace /> },
        { path: 'login', lazy: () => import('../auth/LoginScreen.tsx').then((module) => ({ Component: module.LoginScreen })) },
        {
          path: 'forgot-password',
          lazy: () => import('../auth/ForgotPasswordScreen.tsx').then((module) => ({ Component: module.ForgotPasswordScreen })),
        },
        {
          path: 'reset-password',
          lazy: () => import('../auth/ResetPasswordScreen.tsx').then((module) => ({ Component: module.ResetPasswordScreen })),
        },
        {
          path: 'verify-email',
          lazy: () => import('../auth/VerifyEmailScreen.tsx').then((module) => ({ Component: module.VerifyEmailScreen })),
        },
      ],
    },
  ],
};

/**
 * The development mailbox (/dev/mailbox) for anyone, signed in or not, in development builds only: with
 * `__DEV_MAILBOX__` false (vite.config.ts) this returns nothing, and the screen's chunk is not built.
 */
function devMailboxRoutes(): RouteObject[] {
  if (!__DEV_MAILBOX__) return [];
  return [
    {
      path: 'dev/mailbox',
      lazy: () => import('../layout/GuestLayout.tsx').then((module) => ({ Component: module.GuestLayout })),
      children: [{ index: true, lazy: () => import('../devMailbox/DevMailboxScreen.tsx').then((module) => ({ Component: module.DevMailboxScreen })) }],
    },
  ];
}

/** One admin area: its guard (ROUTE-03), its root resolving to the default route, its guarded module routes. */
function areaRoute(area: AreaRoute): RouteObject {
  const prefix = `/${area.path}`;
  const routes: RouteObject[] = area.routes.map((route) => {
    const relative = route.path.slice(prefix.length).replace(/^\//, '');
    const element = <ModuleRouteElement area={area} route={route} />;
    return relative === '' ? { index: true, element } : { path: relative, element };
  });
  if (!routes.some((route) => route.index)) routes.unshift({ index: true, element: <AreaRoot /> });
  return area.guard === 'authenticated'
    ? { path: area.path, element: <RequireAuth />, children: routes }
    : { path: area.path, children: routes };
}

/** The whole route table of the console, built from the generated areas. */
export function appRoutes(areas: readonly AreaRoute[]): RouteObject[] {
  return [
    {
      element: <RootFrame areas={areas} />,
      errorElement: <RouteError />,
      hydrateFallbackElement: <PageStatus />,
      children: [
        { index: true, element: <Navigate to="/auth" replace /> },
        authRoute,
        ...devMailboxRoutes(),
        {
          lazy: () => loadAdminLayout().then((module) => ({ Component: module.AdminLayout })),
          children: areas.filter((area) => area.layout === 'admin').map(areaRoute),
        },
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
}
