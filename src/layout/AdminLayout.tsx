import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Header } from '../header/Header.tsx';
import { queryClient } from '../query/queryClient.ts';
import { loadScreen } from '../screens/loadScreen.ts';
import { SkipLink } from '../shell/SkipLink.tsx';
import { whenIdle } from '../shell/whenIdle.ts';
import { AreaTabs } from '../sidebar/AreaTabs.tsx';
import { Sidebar, SIDEBAR_ID } from '../sidebar/Sidebar.tsx';
import { usePhoneLayout } from '../sidebar/usePhoneLayout.ts';
import './AdminLayout.css';

/**
 * LAYOUT-02: top header, collapsible left sidebar, routed content under the area's tabs. Its own chunk, with
 * TanStack Query: the login screen loads none of it. Every module screen renders inside, so `useQuery` works in all
 * of them. On a phone the sidebar is a drawer: the header's menu button opens it; a navigation, Escape or a tap
 * beside it closes it, and Escape or the tap gives focus back to the menu button.
 */
export function AdminLayout() {
  const { pathname } = useLocation();
  const phone = usePhoneLayout();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const drawer = phone && drawerOpen;

  useEffect(() => setDrawerOpen(false), [pathname, phone]);
  // Most areas open on a list: its code is fetched once the first screen is usable, not on the first click.
  useEffect(() => whenIdle(() => void loadScreen('list').catch(() => undefined)), []);

  useEffect(() => {
    if (!drawer) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setDrawerOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [drawer]);

  const closeDrawer = () => {
    setDrawerOpen(false);
    menuButton.current?.focus();
  };

  return (
    <QueryClientProvider client={queryClient}>
      <div className="admin-layout">
        <SkipLink />
        <Header
          menu={
            phone
              ? {
                  open: drawer,
                  controls: SIDEBAR_ID,
                  onToggle: () => setDrawerOpen(!drawerOpen),
                  buttonRef: menuButton,
                }
              : undefined
          }
        />
        <div className="admin-body">
          <Sidebar drawerOpen={drawer} />
          {drawer && <div className="drawer-backdrop" aria-hidden="true" onClick={closeDrawer} />}
          <main id="main" tabIndex={-1} className="admin-content" inert={drawer}>
            <AreaTabs />
            <Outlet />
          </main>
        </div>
      </div>
    </QueryClientProvider>
  );
}
