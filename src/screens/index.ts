import type { ComponentType } from 'react';
import type { ScreenName } from '../generated/types.ts';
import type { ScreenPrefetch, ScreenProps } from './ScreenProps.ts';

type ScreenModule = Promise<{ default: ComponentType<ScreenProps>; prefetch?: ScreenPrefetch }>;

/**
 * Every screen by the name the manifest gives it, each its own lazy chunk, so the forms, table and
 * chart libraries load only with the screens that use them.
 */
export const SCREENS: Record<ScreenName, () => ScreenModule> = {
  list: () => import('./generic/ListScreen.tsx'),
  detail: () => import('./generic/DetailScreen.tsx'),
  form: () => import('./generic/FormScreen.tsx'),
  trash: () => import('./generic/TrashScreen.tsx'),
  import: () => import('./generic/ImportScreen.tsx'),
  'role-permissions': () => import('./custom/RolePermissionsScreen.tsx'),
  'subscriber-details': () => import('./custom/SubscriberDetailsScreen.tsx'),
  'data-upload': () => import('./custom/DataUploadScreen.tsx'),
  'sync-trending-data': () => import('./custom/SyncTrendingDataScreen.tsx'),
  'uploaded-data-report': () => import('./custom/UploadedDataReportScreen.tsx'),
  profile: () => import('./custom/ProfileScreen.tsx'),
  'change-password': () => import('./custom/ChangePasswordScreen.tsx'),
  'admin-reporting': () => import('./custom/AdminReportingScreen.tsx'),
  'executive-profiles': () => import('./custom/ExecutiveProfilesScreen.tsx'),
  developers: () => import('./custom/DevelopersScreen.tsx'),
  'user-detail': () => import('./custom/UserDetailScreen.tsx'),
  'audit-log': () => import('./custom/AuditLogScreen.tsx'),
  'api-tokens': () => import('./custom/ApiTokensScreen.tsx'),
  webhooks: () => import('./custom/WebhooksScreen.tsx'),
};
