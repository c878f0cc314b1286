import { useEffect, useId, useRef } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { HOME_PATH, visibleHomeCards } from '../../contract/home.ts';
import { SIDEBAR } from '../generated/sidebar.ts';
import type { ActionName, ModuleKey } from '../generated/permissions.ts';
import type { SidebarEntry, SidebarIcon } from '../generated/types.ts';
import { canAccess } from '../permissions/canAccess.ts';
import { defaultRoute } from '../permissions/defaultRoute.ts';
import { usePermissions } from '../permissions/usePermissions.ts';
import { StrokeIcon } from '../shell/StrokeIcon.tsx';
import { EntryIcon } from './EntryIcon.tsx';
import { isHighlighted } from './isHighlighted.ts';
import { sidebarSections } from './sidebarSections.ts';
import { usePhoneLayout } from './usePhoneLayout.ts';
import { useSidebarOpen } from './useSidebarOpen.ts';
import './Sidebar.css';

/** The id the header's menu button controls. */
export const SIDEBAR_ID = 'sidebar';

export interface SidebarProps {
  entries?: readonly SidebarEntry[];
  /** On a phone the sidebar is a drawer: shown only while this is true. */
  drawerOpen?: boolean;
}

interface SidebarLink {
  key: string;
  label: string;
  icon: SidebarIcon;
  to: string;
  current: boolean;
}

/**
 * The left sidebar (SIDEBAR-01..06): Home for a user with a card on it, then the generated entries the user may
 * access under their headings (sidebarSections), each linking to their default route for its module (fixed entries to
 * exactly their link), each with its own icon, collapsible, the current one highlighted. Closed, a heading is a thin
 * line, still naming its list for screen readers. On a phone it is a drawer over the page instead, always with its
 * labels, and its first link takes focus when it opens.
 */
export function Sidebar({ entries = SIDEBAR, drawerOpen = false }: SidebarProps) {
  const { permissions } = usePermissions();
  const { pathname } = useLocation();
  const [open, setOpen] = useSidebarOpen();
  const phone = usePhoneLayout();
  const linksRef = useRef<HTMLUListElement>(null);
  const headingId = useId();
  const expanded = phone || open;
  const sections = sidebarSections(
    entries,
    entries.filter((entry) => canAccess(permissions, entry.module)),
  );
  const hasHome =
    visibleHomeCards((module, action) => canAccess(permissions, module as ModuleKey, action as ActionName)).length > 0;
  const home: SidebarLink = {
    key: 'HOME',
    label: 'Home',
    icon: 'home',
    to: HOME_PATH,
    current: pathname === HOME_PATH,
  };
  const linkOf = (entry: SidebarEntry): SidebarLink => ({
    key: entry.module,
    label: entry.label,
    icon: entry.icon,
    to: entry.fixed ? entry.link : (defaultRoute(permissions, entry.link) ?? entry.link),
    current: isHighlighted(pathname, entry.link),
  });
  const item = ({ key, label, icon, to, current }: SidebarLink) => (
    <li key={key}>
      <Link
        to={to}
        className="sidebar-link"
        aria-current={current ? 'page' : undefined}
        title={expanded ? undefined : label}
      >
        <EntryIcon name={icon} />
        <span className={expanded ? 'sidebar-label' : 'visually-hidden'}>{label}</span>
      </Link>
    </li>
  );

  useEffect(() => {
    if (phone && drawerOpen) linksRef.current?.querySelector<HTMLElement>('a')?.focus();
  }, [phone, drawerOpen]);

  const classes = ['sidebar', expanded ? 'sidebar-open' : 'sidebar-closed', drawerOpen ? 'sidebar-drawer-open' : ''];
  return (
    <nav id={SIDEBAR_ID} className={classes.join(' ').trim()} aria-label="Main">
      <button
        type="button"
        className="sidebar-toggle"
        aria-expanded={open}
        aria-controls="sidebar-links"
        onClick={() => setOpen(!open)}
      >
        <StrokeIcon icon="menu" />
        <span className="visually-hidden">Menu</span>
      </button>
      <ul ref={linksRef} id="sidebar-links" className="sidebar-links">
        {hasHome && item(home)}
        {sections.map(({ heading, entries: inSection }, index) => (
          <li key={heading ?? ''} className="sidebar-group">
            {heading && (
              <span id={`${headingId}-${index}`} className={expanded ? 'sidebar-heading' : 'visually-hidden'}>
                {heading}
              </span>
            )}
            <ul className="sidebar-links" aria-labelledby={heading ? `${headingId}-${index}` : undefined}>
              {inSection.map((entry) => item(linkOf(entry)))}
            </ul>
          </li>
        ))}
      </ul>
    </nav>
  );
}
