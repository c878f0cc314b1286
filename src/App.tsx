import { AppRouter } from './routing/AppRouter.tsx';
import type { AppRouting } from './routing/createAppRouter.ts';
import { DeferredToastHost } from './shell/DeferredToastHost.tsx';
import { LoaderOverlay } from './shell/LoaderOverlay.tsx';

export interface AppProps {
  router: AppRouting;
}

/** The running console: the routes, the loader overlay and the toasts. */
export function App({ router }: AppProps) {
  return (
    <>
      <AppRouter history={router.history} routes={router.routes} />
      <LoaderOverlay />
      <DeferredToastHost />
    </>
  );
}
