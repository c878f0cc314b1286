import { RouterProvider } from 'react-router-dom';
import type { createAppRouter } from './routing/createAppRouter.ts';
import { DeferredToastHost } from './shell/DeferredToastHost.tsx';
import { LoaderOverlay } from './shell/LoaderOverlay.tsx';

export interface AppProps {
  router: ReturnType<typeof createAppRouter>;
}

/** The running console: the routes, the loader overlay and the toasts. */
export function App({ router }: AppProps) {
  return (
    <>
      <RouterProvider router={router} />
      <LoaderOverlay />
      <DeferredToastHost />
    </>
  );
}
