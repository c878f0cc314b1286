export { NotificationsMenu } from './NotificationsMenu.tsx';
export { useNotifications, type Notification, type UseNotificationsResult } from './useNotifications.ts';
