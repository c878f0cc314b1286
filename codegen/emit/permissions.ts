import type { ProjectModel } from '../../contract/description.ts';
import { ACTION_LABELS } from '../vocabulary.ts';
import { literal, tsHeader } from './header.ts';

/** src/generated/permissions.ts: module keys and action names as literal unions (PERM-09). */
export function emitPermissions(model: ProjectModel): string {
  const moduleActions: Record<string, string[]> = {};
  const moduleLabels: Record<string, string> = {};
  for (const area of model.areas) {
    moduleActions[area.key] = ['view'];
    moduleLabels[area.key] = area.label;
    for (const resource of area.resources) {
      moduleActions[resource.key] = resource.actions;
      moduleLabels[resource.key] = resource.label;
    }
  }
  const sortedKeys = Object.keys(moduleActions).sort();
  const sorted = Object.fromEntries(sortedKeys.map((key) => [key, moduleActions[key]]));
  const labels = Object.fromEntries(sortedKeys.map((key) => [key, moduleLabels[key]]));
  return `${tsHeader()}
/** Every module key of the manifest: the areas and their resources (docs/spec/seed-spec.md section 6). */
export const MODULES = ${literal(model.modules)} as const;

export type ModuleKey = (typeof MODULES)[number];

/** The permission action vocabulary (docs/spec/seed-spec.md section 3). */
export const ACTIONS = ${literal(model.actions)} as const;

export type ActionName = (typeof ACTIONS)[number];

/** What people call each action. */
export const ACTION_LABELS: Readonly<Record<ActionName, string>> = ${literal(Object.fromEntries(model.actions.map((action) => [action, ACTION_LABELS[action]])))};

/** The actions each module offers; an area module offers view. */
export const MODULE_ACTIONS: Readonly<Record<ModuleKey, readonly ActionName[]>> = ${literal(sorted)};

/** What people call each module: the manifest's area and resource labels. */
export const MODULE_LABELS: Readonly<Record<ModuleKey, string>> = ${literal(labels)};
`;
}
