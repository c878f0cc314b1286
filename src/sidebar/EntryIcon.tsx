import type { SidebarIcon } from '../generated/types.ts';

/** One path per icon, drawn on a 24 x 24 grid with round 2 px strokes (the stroke is set in Sidebar.css). */
const PATHS: Record<SidebarIcon, string> = {
  activity: 'M3 12h4l3-8 4 16 3-8h4',
  'address-book':
    'M6 3h13v18H6zM3 7h3M3 12h3M3 17h3M10 17c.5-1.5 1.5-2 2.5-2s2 .5 2.5 2M11 10.5a1.5 1.5 0 1 0 3 0 1.5 1.5 0 1 0-3 0',
  'bar-chart': 'M4 20h16M7 16v-5M12 16V6M17 16v-8',
  briefcase: 'M3 8h18v11H3zM8 8V5h8v3M3 13h18',
  building: 'M4 21V3h10v18M14 8h6v13M2 21h20M8 7h2M8 11h2M8 15h2M17 12h.01M17 16h.01',
  columns: 'M4 4h16v16H4zM9.3 4v16M14.7 4v16',
  'credit-card': 'M3 6h18v12H3zM3 10h18M7 15h3',
  database:
    'M4 6c0-1.7 3.6-3 8-3s8 1.3 8 3-3.6 3-8 3-8-1.3-8-3zM4 6v12c0 1.7 3.6 3 8 3s8-1.3 8-3V6M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3',
  folder: 'M3 6a1 1 0 0 1 1-1h5l2 2h9a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1z',
  globe:
    'M3 12a9 9 0 1 0 18 0 9 9 0 1 0-18 0M3 12h18M12 3c2.5 2.5 3.8 5.5 3.8 9s-1.3 6.5-3.8 9c-2.5-2.5-3.8-5.5-3.8-9S9.5 5.5 12 3z',
  hash: 'M5 9h15M4 15h15M10 3 8 21M16 3l-2 18',
  home: 'M3 11l9-8 9 8M5 10v10h5v-6h4v6h5V10',
  'id-card': 'M3 5h18v14H3zM6 15c.5-1.5 1.5-2 2.5-2s2 .5 2.5 2M13 9h5M13 13h4M7 10a1.5 1.5 0 1 0 3 0 1.5 1.5 0 1 0-3 0',
  image: 'M3 5h18v14H3zM3 16l5-5 4 4 3-3 6 6M15 8.5a1.5 1.5 0 1 0 3 0 1.5 1.5 0 1 0-3 0',
  package: 'M12 3l8 4.5v9L12 21l-8-4.5v-9zM4 7.5l8 4.5 8-4.5M12 12v9',
  shield: 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6zM9 12l2 2 4-4',
  tag: 'M3 3h8l10 10-8 8L3 11zM7.5 7.5h.01',
  ticket: 'M4 6h16v4a2 2 0 0 0 0 4v4H4v-4a2 2 0 0 0 0-4zM14 6v2M14 11v2M14 16v2',
  upload: 'M12 15V4M7 9l5-5 5 5M4 15v5h16v-5',
  users:
    'M5.5 8a3.5 3.5 0 1 0 7 0 3.5 3.5 0 1 0-7 0M2 20a7 7 0 0 1 14 0M16 4.6a3.5 3.5 0 0 1 0 6.8M22 20a7 7 0 0 0-4-6.3',
};

/** The sidebar icon of `name`, decorative: the link's label names it. */
export function EntryIcon({ name }: { name: SidebarIcon }) {
  return (
    <svg className="sidebar-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} />
    </svg>
  );
}
