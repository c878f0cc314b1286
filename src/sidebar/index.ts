export { Sidebar, type SidebarProps } from './Sidebar.tsx';
export { AreaTabs, type AreaTabsProps } from './AreaTabs.tsx';
