/** The admin layout's chunk: loaded by its route, and ahead of time with the areas flagged for preloading. */
export const loadAdminLayout = () => import('../layout/AdminLayout.tsx');
