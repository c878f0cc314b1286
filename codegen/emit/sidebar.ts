import type { ProjectModel } from '../../contract/description.ts';
import { literal, tsHeader } from './header.ts';

/** src/generated/sidebar.ts: the sidebar entries in order (SIDEBAR-01, SIDEBAR-02), each with its heading and icon. */
export function emitSidebar(model: ProjectModel): string {
  const entries = model.areas
    .filter((area) => area.sidebar)
    .map((area) => ({
      module: area.key,
      label: area.sidebar!.label,
      link: area.sidebar!.link,
      fixed: area.sidebar!.fixed,
      group: area.sidebar!.group,
      icon: area.sidebar!.icon,
      order: area.order,
    }));
  return `${tsHeader()}
import type { SidebarEntry } from './types.ts';

export const SIDEBAR: readonly SidebarEntry[] = ${literal(entries)};
`;
}
