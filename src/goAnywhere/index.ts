export { GoAnywhereButton } from './GoAnywhereButton.tsx';
