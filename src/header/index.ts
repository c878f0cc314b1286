export { Header } from './Header.tsx';
export { Dropdown, type DropdownProps } from './Dropdown.tsx';
