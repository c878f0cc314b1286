import type { ActionName, ModuleKey } from '../generated/permissions.ts';
import type { Permissions } from './types.ts';

/**
 * The one permission check of the console, denied by default.
 * PERM-02: no module → allowed. PERM-03: permissions not loaded → denied.
 * PERM-04: the module needs an entry; an action needs to exist within it.
 */
export function canAccess(permissions: Permissions | null, module?: ModuleKey, action?: ActionName): boolean {
  if (module === undefined) return true;
  if (permissions === null) return false;
  const entry = Object.hasOwn(permissions, module) ? permissions[module] : undefined;
  if (!entry) return false;
  return action === undefined || Object.hasOwn(entry.actions, action);
}
