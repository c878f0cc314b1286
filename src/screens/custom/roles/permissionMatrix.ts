import { ACTIONS, ACTION_LABELS, MODULE_ACTIONS, MODULE_LABELS, type ActionName, type ModuleKey } from '../../../generated/permissions.ts';
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

/** A change to a permission set, with what it took along so that the matrix can say so before it is saved. */
export interface MatrixChange {
  set: PermissionSet;
  /** Said to the user: what else changed with the box they ticked, or null when nothing else did. */
  note: string | null;
}

/**
 * Every other action of a module is reached from its list, so it needs the module's View: granting one grants View,
 * and taking View away takes them all (a module that offers no View has no such rule).
 */
export function withAction(set: PermissionSet, module: ModuleKey, action: ActionName, granted: boolean): MatrixChange {
  const needsView = MODULE_ACTIONS[module].includes('view') && action !== 'view';
  const current = new Set(set[module] ?? []);
  let note: string | null = null;
  if (granted) {
    current.add(action);
    if (needsView && !current.has('view')) {
      current.add('view');
      note = `${MODULE_LABELS[module]}: View granted too, as ${ACTION_LABELS[action]} needs it.`;
    }
  } else {
    current.delete(action);
    const others = action === 'view' ? [...current] : [];
    if (others.length > 0) {
      others.forEach((other) => current.delete(other));
      const names = ACTIONS.filter((candidate) => others.includes(candidate)).map((candidate) => ACTION_LABELS[candidate]);
      note = `${MODULE_LABELS[module]}: ${names.join(', ')} taken away too, as ${others.length === 1 ? 'it needs' : 'they need'} View.`;
    }
  }
  const next = { ...set };
  if (current.size === 0) delete next[module];
  else next[module] = ACTIONS.filter((candidate) => current.has(candidate));
  return { set: next, note };
}

/** The set with every action of a module granted or revoked. */
export function withModule(set: PermissionSet, module: ModuleKey, granted: boolean): PermissionSet {
  const next = { ...set };
  if (granted) next[module] = [...MODULE_ACTIONS[module]];
  else delete next[module];
  return next;
}
