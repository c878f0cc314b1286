import { generatePath } from 'react-router-dom';
import type { ResourceDescription } from '../../../generated/types.ts';
import type { Row } from '../../shared/formatValue.ts';
import type { ResourceAccess } from '../../shared/useResourceAccess.ts';

/** The screens a row leads to, each with its own permission. */
export type RowScreen = 'view_detail' | 'SUBSCRIBER_DETAIL' | 'edit';

/** Opening a record shows the first of these the user may open: its detail screen, the subscriber's details, its form. */
const OPENS: readonly RowScreen[] = ['view_detail', 'SUBSCRIBER_DETAIL', 'edit'];

/** The path of one of a row's screens, or null when the resource has none or the user may not open it. */
export function rowPath(
  resource: ResourceDescription,
  access: ResourceAccess,
  screen: RowScreen,
  row: Row,
): string | null {
  const path = resource.routes[screen];
  return access[screen] && path ? generatePath(path, { id: String(row.id) }) : null;
}

/** Where clicking a row (or Enter on it) goes, or null when the user may open none of its screens. */
export function rowOpenPath(resource: ResourceDescription, access: ResourceAccess, row: Row): string | null {
  for (const screen of OPENS) {
    const path = rowPath(resource, access, screen, row);
    if (path) return path;
  }
  return null;
}
