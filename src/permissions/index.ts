export { canAccess } from './canAccess.ts';
export { defaultRoute, routablePaths } from './defaultRoute.ts';
export { permissionStore, requestPermissionsReload } from './permissionStore.ts';
export { usePermissions, type UsePermissionsResult } from './usePermissions.ts';
export { useCanAccess, type UseCanAccessResult } from './useCanAccess.ts';
export { CanAccess, type CanAccessProps } from './CanAccess.tsx';
export type { Permissions, ModulePermission, GrantedAction } from './types.ts';
export type { ModuleKey, ActionName } from '../generated/permissions.ts';
