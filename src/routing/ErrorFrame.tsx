import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { loadAdminLayout } from './adminLayout.ts';
import { PageStatus } from './PageStatus.tsx';
import { useAuthenticated } from './useAuthenticated.ts';

const AdminLayout = lazy(() => loadAdminLayout().then((module) => ({ default: module.AdminLayout })));

/**
 * Around the 403 and 404 pages: a signed-in user keeps the header and the sidebar (so the way on is where it always
 * is), a visitor gets the page alone.
 */
export function ErrorFrame() {
  if (useAuthenticated()) {
    return (
      <Suspense fallback={<PageStatus />}>
        <AdminLayout />
      </Suspense>
    );
  }
  return (
    <main id="main" tabIndex={-1}>
      <Outlet />
    </main>
  );
}
