import { Link, useLocation } from 'react-router-dom';
import { SIDEBAR } from '../generated/sidebar.ts';
import type { SidebarEntry } from '../generated/types.ts';
import { canAccess } from '../permissions/canAccess.ts';
import { defaultRoute } from '../permissions/defaultRoute.ts';
import { usePermissions } from '../permissions/usePermissions.ts';
import { isHighlighted } from './isHighlighted.ts';
import { useSidebarOpen } from './useSidebarOpen.ts';
import './Sidebar.css';

export interface SidebarProps {
  entries?: readonly SidebarEntry[];
}

const abbreviation = (label: string) =>
  label
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => word[0] ?? '')
    .join('')
    .toUpperCase();

/**
 * The left sidebar (SIDEBAR-01..06): the generated entries the user may access, each linking to their default
 * route for its module (fixed entries to exactly their link), collapsible, the current one highlighted.
 */
export function Sidebar({ entries = SIDEBAR }: SidebarProps) {
  const { permissions } = usePermissions();
  const { pathname } = useLocation();
  const [open, setOpen] = useSidebarOpen();
  const visible = entries.filter((entry) => canAccess(permissions, entry.module)).sort((a, b) => a.order - b.order);
  return (
    <nav className={`sidebar ${open ? 'sidebar-open' : 'sidebar-closed'}`} aria-label="Main">
      <button type="button" className="sidebar-toggle" aria-expanded={open} aria-controls="sidebar-links" onClick={() => setOpen(!open)}>
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M4 6h16M4 12h16M4 18h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <span className="visually-hidden">Menu</span>
      </button>
      <ul id="sidebar-links" className="sidebar-links">
        {visible.map((entry) => {
          const to = entry.fixed ? entry.link : (defaultRoute(permissions, entry.link) ?? entry.link);
          const current = isHighlighted(pathname, entry.link);
          return (
            <li key={entry.module}>
              <Link to={to} className="sidebar-link" aria-current={current ? 'page' : undefined} title={open ? undefined : entry.label}>
                <span className="sidebar-icon" aria-hidden="true">
                  {abbreviation(entry.label)}
                </span>
                <span className={open ? 'sidebar-label' : 'visually-hidden'}>{entry.label}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
