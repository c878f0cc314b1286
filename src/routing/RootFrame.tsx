import { useEffect } from 'react';
import { Outlet, ScrollRestoration } from 'react-router-dom';
import type { AreaRoute } from '../generated/types.ts';
import { useSession } from '../session/useSession.ts';
import { preloadAreas } from './preloadAreas.ts';

export interface RootFrameProps {
  areas: readonly AreaRoute[];
}

/**
 * Wraps every route: scroll restoration on back and forward (ROUTE-07), and, once the first screen of a
 * logged-in user has rendered, the preloading of flagged areas (ROUTE-08). A visitor on the login screen does
 * not pay for chunks only a signed-in user can open.
 */
export function RootFrame({ areas }: RootFrameProps) {
  const { loggedIn } = useSession();
  useEffect(() => {
    if (loggedIn) preloadAreas(areas);
  }, [areas, loggedIn]);
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  );
}
