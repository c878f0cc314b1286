import { createBrowserRouter } from 'react-router-dom';
import { AREAS } from '../generated/routes.ts';
import { followNavigationFocus } from '../shell/navigationFocus.ts';
import { appRoutes } from './appRoutes.tsx';

/** The console's data router from the generated route table. */
export function createAppRouter() {
  const router = createBrowserRouter(appRoutes(AREAS));
  followNavigationFocus(router);
  return router;
}
