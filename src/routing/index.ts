export { appRoutes } from './appRoutes.tsx';
export { createAppRouter } from './createAppRouter.ts';
