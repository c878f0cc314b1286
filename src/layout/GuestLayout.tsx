import { Outlet } from 'react-router-dom';
import { Brand } from '../shell/Brand.tsx';
import { SkipLink } from '../shell/SkipLink.tsx';
import './GuestLayout.css';

export interface GuestLayoutProps {
  /** False for screens shown without the header: their route renders the layout so. */
  header?: boolean;
}

/** LAYOUT-01: a bare page with only the routed content, and a header unless the route turns it off. */
export function GuestLayout({ header = true }: GuestLayoutProps) {
  return (
    <div className="guest-layout">
      <SkipLink />
      {header && (
        <header className="guest-header">
          <Brand />
        </header>
      )}
      <main id="main" tabIndex={-1} className="guest-content">
        <Outlet />
      </main>
    </div>
  );
}
