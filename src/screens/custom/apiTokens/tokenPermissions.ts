import { MODULES_NO_TOKEN_REACHES, type TokenPermissions } from '../../../../contract/apiTokens.ts';
import { NARROWING_ACTIONS } from '../../../../contract/modules.ts';
import { ACTION_LABELS, MODULE_ACTIONS, MODULE_LABELS, type ModuleKey } from '../../../generated/permissions.ts';
import { AREAS } from '../../../generated/routes.ts';
import type { Permissions } from '../../../permissions/index.ts';

export interface ModuleChoice {
  module: string;
  label: string;
  actions: string[];
}

const AREA_KEYS: ReadonlySet<string> = new Set(AREAS.map((area) => area.module));
const isModule = (key: string): key is ModuleKey => Object.hasOwn(MODULE_ACTIONS, key);

export function moduleLabel(module: string): string {
  return isModule(module) ? MODULE_LABELS[module] : module;
}

export function actionLabel(action: string): string {
  return (ACTION_LABELS as Record<string, string>)[action] ?? action;
}

/**
 * What the caller may give a token: each module of theirs that a token may reach (not an area, not their own
 * account), with the actions they have of it but the narrowing ones (a token carries those unasked), in menu order.
 */
export function moduleChoices(permissions: Permissions): ModuleChoice[] {
  return Object.entries(permissions)
    .flatMap(([module, granted]) =>
      granted && isModule(module) && !AREA_KEYS.has(module) && !MODULES_NO_TOKEN_REACHES.has(module)
        ? [{ module, granted }]
        : [],
    )
    .sort((a, b) => a.granted.order - b.granted.order)
    .map(({ module, granted }) => ({
      module,
      label: moduleLabel(module),
      actions: Object.keys(granted.actions).filter(
        (action) => !NARROWING_ACTIONS.has(action) && MODULE_ACTIONS[module as ModuleKey].includes(action as never),
      ),
    }))
    .filter((choice) => choice.actions.length > 0);
}

/** "Subscribers: View, Edit · Vouchers: View", as a list cell says it. */
export function permissionsSummary(permissions: TokenPermissions): string {
  return Object.entries(permissions)
    .map(([module, actions]) => `${moduleLabel(module)}: ${actions.map(actionLabel).join(', ')}`)
    .join(' · ');
}
