import { ACTIONS, MODULE_ACTIONS, type ActionName, type ModuleKey } from '../../../generated/permissions.ts';
import { AREAS } from '../../../generated/routes.ts';

/** A role's permission set as the API speaks it: actions by module. */
export type PermissionSet = Partial<Record<ModuleKey, ActionName[]>>;

export interface MatrixArea {
  module: ModuleKey;
  label: string;
  /** The area's own module first, then its resources' modules. */
  modules: ModuleKey[];
  /** The actions any module of the area offers, in vocabulary order: the matrix's columns. */
  actions: ActionName[];
}

/** The permission matrix's rows and columns, from the generated AREAS and MODULE_ACTIONS. */
export function matrixAreas(): MatrixArea[] {
  return AREAS.map((area) => {
    const modules = [...new Set<ModuleKey>([area.module, ...area.routes.map((route) => route.module)])];
    const offered = new Set(modules.flatMap((module) => MODULE_ACTIONS[module]));
    return { module: area.module, label: area.label, modules, actions: ACTIONS.filter((action) => offered.has(action)) };
  });
}

export function hasAction(set: PermissionSet, module: ModuleKey, action: ActionName): boolean {
  return set[module]?.includes(action) ?? false;
}

/** The set with one action granted or revoked; a module left with no action is dropped. */
export function withAction(set: PermissionSet, module: ModuleKey, action: ActionName, granted: boolean): PermissionSet {
  const current = new Set(set[module] ?? []);
  if (granted) current.add(action);
  else current.delete(action);
  const next = { ...set };
  if (current.size === 0) delete next[module];
  else next[module] = ACTIONS.filter((candidate) => current.has(candidate));
  return next;
}

/** The set with every action of a module granted or revoked. */
export function withModule(set: PermissionSet, module: ModuleKey, granted: boolean): PermissionSet {
  const next = { ...set };
  if (granted) next[module] = [...MODULE_ACTIONS[module]];
  else delete next[module];
  return next;
}
