import { useEffect } from 'react';
import { Outlet } from 'react-router-dom';
import type { AreaRoute } from '../generated/types.ts';
import { whenIdle } from '../shell/whenIdle.ts';
import { preloadAreas } from './preloadAreas.ts';
import { useScrollRestoration } from './useScrollRestoration.ts';

export interface RootFrameProps {
  areas: readonly AreaRoute[];
  /** Starts loading the chunks of the home screen, where a sign-in lands; settles when they are there. */
  preloadHome: () => Promise<void> | null;
}

/**
 * Wraps every route: scroll restoration on back and forward (ROUTE-07), and, once the first screen has rendered and
 * the browser is idle, the preloading of the home screen and then of flagged areas (ROUTE-08). On the sign-in screen
 * too: the chunks are then there when the user has signed in, and the screen was usable before they were asked for.
 * The home screen goes first, alone: a sign-in submitted meanwhile needs it next, and its few files would otherwise
 * queue behind the areas' dozens for the browser's connections.
 */
export function RootFrame({ areas, preloadHome }: RootFrameProps) {
  useScrollRestoration();
  useEffect(
    () =>
      whenIdle(() => {
        const home = preloadHome();
        if (home) void home.then(() => preloadAreas(areas));
        else preloadAreas(areas);
      }),
    [areas, preloadHome],
  );
  return <Outlet />;
}
