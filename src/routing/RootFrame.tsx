import { useEffect } from 'react';
import { Outlet } from 'react-router-dom';
import type { AreaRoute } from '../generated/types.ts';
import { whenIdle } from '../shell/whenIdle.ts';
import { preloadAreas } from './preloadAreas.ts';
import { useScrollRestoration } from './useScrollRestoration.ts';

export interface RootFrameProps {
  areas: readonly AreaRoute[];
}

/**
 * Wraps every route: scroll restoration on back and forward (ROUTE-07), and, once the first screen has rendered and
 * the browser is idle, the preloading of flagged areas (ROUTE-08). On the sign-in screen too: the chunks are then
 * there when the user has signed in, and the screen was usable before they were asked for.
 */
export function RootFrame({ areas }: RootFrameProps) {
  useScrollRestoration();
  useEffect(() => whenIdle(() => preloadAreas(areas)), [areas]);
  return <Outlet />;
}
