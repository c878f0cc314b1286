import type { ActionName, ModuleKey } from '../generated/permissions.ts';
import { canAccess } from './canAccess.ts';
import { usePermissions } from './usePermissions.ts';

export interface UseCanAccessResult {
  /** False while loading (PERM-03). */
  allowed: boolean;
  loading: boolean;
}

export function useCanAccess(module?: ModuleKey, action?: ActionName): UseCanAccessResult {
  const { permissions, loaded, failed } = usePermissions();
  return { allowed: canAccess(permissions, module, action), loading: module !== undefined && !loaded && !failed };
}
