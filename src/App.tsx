import { useEffect, useLayoutEffect, useState } from 'react';
import { dropPrerenderedSignIn } from './auth/prerenderedSignIn.ts';
import { AppRouter } from './routing/AppRouter.tsx';
import type { AppRouting } from './routing/createAppRouter.ts';
import { PageStatus } from './routing/PageStatus.tsx';
import { DeferredToastHost } from './shell/DeferredToastHost.tsx';
import { LoaderOverlay } from './shell/LoaderOverlay.tsx';

export interface AppProps {
  router: AppRouting;
}

/**
 * The running console: the routes, the loader overlay and the toasts. The routes render once the first address's
 * chunks are there, whole: suspended content would be revealed at React's throttled pace, hundreds of milliseconds
 * after the chunks arrived.
 */
export function App({ router }: AppProps) {
  const [firstChunksThere, setFirstChunksThere] = useState(false);
  useEffect(() => {
    let mounted = true;
    void router.firstChunks.then(() => mounted && setFirstChunksThere(true));
    return () => {
      mounted = false;
    };
  }, [router]);
  // After the screen's own layout effects: the sign-in screen takes the page's prerendered form over; any other goes.
  useLayoutEffect(() => {
    if (firstChunksThere) dropPrerenderedSignIn();
  }, [firstChunksThere]);
  return (
    <>
      {firstChunksThere ? <AppRouter history={router.history} routes={router.routes} /> : <PageStatus />}
      <LoaderOverlay />
      <DeferredToastHost />
    </>
  );
}
