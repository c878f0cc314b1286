import { createBrowserRouter } from 'react-router-dom';
import { AREAS } from '../generated/routes.ts';
import { appRoutes } from './appRoutes.tsx';

/** The console's data router from the generated route table. */
export function createAppRouter() {
  return createBrowserRouter(appRoutes(AREAS));
}
