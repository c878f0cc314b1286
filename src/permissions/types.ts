import type { ActionName, ModuleKey } from '../generated/permissions.ts';

/** One action of a module as the server grants it (ROUTE-10). */
export interface GrantedAction {
  is_routable: boolean;
  route_url: string;
}

/** One module's entry of `user/permission` (PERM-01). */
export interface ModulePermission {
  order: number;
  actions: Partial<Record<ActionName | string, GrantedAction>>;
}

/** The `data` of GET `user/permission`: keyed by module name. */
export type Permissions = Partial<Record<ModuleKey | string, ModulePermission>>;
