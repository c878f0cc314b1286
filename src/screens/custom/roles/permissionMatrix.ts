import {
  ACTIONS,
  ACTION_LABELS,
  MODULE_ACTIONS,
  MODULE_LABELS,
  type ActionName,
  type ModuleKey,
} from '../../../generated/permissions.ts';
import { AREAS } from '../../../generated/routes.ts';

/** A role's permission set as the API speaks it: actions by module. */
export type PermissionSet = Partial<Record<ModuleKey, ActionName[]>>;

export interface MatrixArea {
  /** The area's own module: its View shows the area in the sidebar even with none of its modules granted. */
  module: ModuleKey;
  label: string;
  /** The area's resources' modules: the matrix's rows under the area's heading. */
  modules: ModuleKey[];
}

/** Whether `module` has `action` at all: only then does the matrix give it a box. */
export function offersAction(module: ModuleKey, action: ActionName): boolean {
  return MODULE_ACTIONS[module].includes(action);
}

/** The permission matrix's groups and rows, from the generated AREAS. */
export function matrixAreas(): MatrixArea[] {
  return AREAS.map((area) => ({
    module: area.module,
    label: area.label,
    modules: [...new Set<ModuleKey>(area.routes.map((route) => route.module))].filter(
      (module) => module !== area.module,
    ),
  }));
}

/** The matrix's columns: every action some module of the areas offers, in vocabulary order. */
export function matrixColumns(areas: readonly MatrixArea[]): ActionName[] {
  const offered = new Set(
    areas.flatMap((area) => [area.module, ...area.modules]).flatMap((module) => MODULE_ACTIONS[module]),
  );
  return ACTIONS.filter((action) => offered.has(action));
}

/** The areas with only the modules whose name (or whose area's name) holds `query`; areas left empty go. */
export function filterAreas(areas: readonly MatrixArea[], query: string): MatrixArea[] {
  const wanted = query.trim().toLowerCase();
  if (!wanted) return [...areas];
  const matches = (label: string) => label.toLowerCase().includes(wanted);
  return areas
    .map((area) =>
      matches(area.label)
        ? area
        : { ...area, modules: area.modules.filter((module) => matches(MODULE_LABELS[module])) },
    )
    .filter((area) => matches(area.label) || area.modules.length > 0);
}

export function hasAction(set: PermissionSet, module: ModuleKey, action: ActionName): boolean {
  return set[module]?.includes(action) ?? false;
}

/** View is implied when another action of the module is granted: every other action is reached from the list. */
export function viewImplied(set: PermissionSet, module: ModuleKey): boolean {
  return offersAction(module, 'view') && (set[module] ?? []).some((action) => action !== 'view');
}

/** A change to a permission set, with what it took along so that the matrix can say so before it is saved. */
export interface MatrixChange {
  set: PermissionSet;
  /** Said to the user: what else changed with the box they ticked, or null when nothing else did. */
  note: string | null;
}

/** The set with `module`'s actions replaced by `actions` (in vocabulary order), the module dropped when none is left. */
function withActions(set: PermissionSet, module: ModuleKey, actions: ReadonlySet<ActionName>): PermissionSet {
  const next = { ...set };
  if (actions.size === 0) delete next[module];
  else next[module] = ACTIONS.filter((candidate) => actions.has(candidate));
  return next;
}

/**
 * Every other action of a module is reached from its list, so it needs the module's View: granting one grants View,
 * and taking View away takes them all (a module that offers no View has no such rule).
 */
export function withAction(set: PermissionSet, module: ModuleKey, action: ActionName, granted: boolean): MatrixChange {
  const needsView = offersAction(module, 'view') && action !== 'view';
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
      const names = ACTIONS.filter((candidate) => others.includes(candidate)).map(
        (candidate) => ACTION_LABELS[candidate],
      );
      note = `${MODULE_LABELS[module]}: ${names.join(', ')} taken away too, as ${others.length === 1 ? 'it needs' : 'they need'} View.`;
    }
  }
  return { set: withActions(set, module, current), note };
}

/** The set with every action of each of `modules` granted or revoked: a module's row, or an area's. */
export function withModules(set: PermissionSet, modules: readonly ModuleKey[], granted: boolean): PermissionSet {
  return modules.reduce(
    (next, module) => withActions(next, module, new Set(granted ? MODULE_ACTIONS[module] : [])),
    set,
  );
}

/**
 * The set with `action` granted or revoked for each of `modules` that offers it: a column. Granting takes View along
 * and revoking View takes the rest along, as for one box; the note says so once for the column.
 */
export function withColumn(
  set: PermissionSet,
  modules: readonly ModuleKey[],
  action: ActionName,
  granted: boolean,
): MatrixChange {
  let next = set;
  let along = 0;
  for (const module of modules.filter((candidate) => offersAction(candidate, action))) {
    const change = withAction(next, module, action, granted);
    if (change.note !== null) along += 1;
    next = change.set;
  }
  if (along === 0) return { set: next, note: null };
  const modulesText = `${along} module${along === 1 ? '' : 's'}`;
  const note = granted
    ? `View granted too for ${modulesText}, as ${ACTION_LABELS[action]} needs it.`
    : `The other actions of ${modulesText} taken away too, as they need View.`;
  return { set: next, note };
}

/** Whether every action of every one of `modules` is granted (true), none is (false), or some are (mixed). */
export function grantedState(
  set: PermissionSet,
  modules: readonly ModuleKey[],
  action?: ActionName,
): boolean | 'mixed' {
  const boxes = modules.flatMap((module) =>
    MODULE_ACTIONS[module]
      .filter((offered) => action === undefined || offered === action)
      .map((offered) => hasAction(set, module, offered)),
  );
  if (boxes.length > 0 && boxes.every(Boolean)) return true;
  return boxes.some(Boolean) ? 'mixed' : false;
}
