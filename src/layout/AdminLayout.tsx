import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router-dom';
import { Header } from '../header/Header.tsx';
import { queryClient } from '../query/queryClient.ts';
import { SkipLink } from '../shell/SkipLink.tsx';
import { Sidebar } from '../sidebar/Sidebar.tsx';
import './AdminLayout.css';

/**
 * LAYOUT-02: top header, collapsible left sidebar, routed content. Its own chunk, with TanStack Query: the
 * login screen loads none of it. Every module screen renders inside, so `useQuery` works in all of them.
 */
export function AdminLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <div className="admin-layout">
        <SkipLink />
        <Header />
        <div className="admin-body">
          <Sidebar />
          <main id="main" tabIndex={-1} className="admin-content">
            <Outlet />
          </main>
        </div>
      </div>
    </QueryClientProvider>
  );
}
