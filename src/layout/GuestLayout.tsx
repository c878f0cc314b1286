import { Outlet, useMatches } from 'react-router-dom';
import { Brand } from '../shell/Brand.tsx';
import { SkipLink } from '../shell/SkipLink.tsx';
import './GuestLayout.css';

/** Route `handle` of a guest screen: `{ header: false }` hides the header (LAYOUT-01). */
export interface GuestRouteHandle {
  header?: boolean;
}

/** LAYOUT-01: a bare page with only the routed content, and a header unless the route turns it off. */
export function GuestLayout() {
  const matches = useMatches();
  const showHeader = !matches.some((match) => (match.handle as GuestRouteHandle | undefined)?.header === false);
  return (
    <div className="guest-layout">
      <SkipLink />
      {showHeader && (
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
