import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { AREAS } from '../generated/routes.ts';
import type { AreaResource, AreaRoute } from '../generated/types.ts';
import { canAccess } from '../permissions/canAccess.ts';
import { usePermissions } from '../permissions/usePermissions.ts';
import { isHighlighted } from './isHighlighted.ts';
import './AreaTabs.css';

export interface AreaTabsProps {
  areas?: readonly AreaRoute[];
}

const opens = (pathname: string, resource: AreaResource) =>
  pathname === resource.path || pathname.startsWith(`${resource.path}/`);

/**
 * The navigation inside an area: a tab per resource of the current area the user may view, from the generated
 * route table, the current one marked. Shown when the area offers more than one; on a narrow screen the row
 * scrolls sideways, keeping the current tab in view.
 */
export function AreaTabs({ areas = AREAS }: AreaTabsProps) {
  const { pathname } = useLocation();
  const { permissions } = usePermissions();
  const listRef = useRef<HTMLUListElement>(null);
  const area = areas.find((candidate) => isHighlighted(pathname, `/${candidate.path}`));
  const visible = area?.resources.filter((resource) => canAccess(permissions, resource.module, 'view')) ?? [];
  const current = visible.find((resource) => opens(pathname, resource));

  useEffect(() => {
    const list = listRef.current;
    const tab = list?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!list || !tab) return;
    // Scrolls the row only (scrollIntoView could scroll the page, and undo a restored scroll position).
    if (tab.offsetLeft < list.scrollLeft || tab.offsetLeft + tab.offsetWidth > list.scrollLeft + list.clientWidth) {
      list.scrollLeft = tab.offsetLeft - (list.clientWidth - tab.offsetWidth) / 2;
    }
  }, [current]);

  if (!area || visible.length < 2) return null;
  return (
    <nav className="area-tabs" aria-label={area.label}>
      <ul ref={listRef} className="area-tabs__list">
        {visible.map((resource) => (
          <li key={resource.module}>
            <Link to={resource.path} className="area-tab" aria-current={resource === current ? 'page' : undefined}>
              {resource.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
