import { generatePath } from 'react-router-dom';
import { canAccess, type Permissions } from '../../../permissions/index.ts';
import type { ActionName, ModuleKey } from '../../../generated/permissions.ts';
import { AREAS } from '../../../generated/routes.ts';
import { humanize } from '../../shared/humanize.ts';

export interface AuditModule {
  module: string;
  label: string;
}

/** The screens that show one record, by the action that guards them. */
const RECORD_ACTIONS: readonly ActionName[] = ['view_detail', 'SUBSCRIBER_DETAIL'];

const labels = new Map<string, string>();
for (const area of AREAS) {
  for (const route of area.routes)
    labels.set(route.module, route.module === area.module ? area.label : humanize(route.module));
  for (const resource of area.resources) labels.set(resource.module, resource.label);
  labels.set(area.module, area.label);
}

/** What people call a module: its resource's label, its area's, else its key in words. */
export function moduleLabel(module: string): string {
  return labels.get(module) ?? humanize(module);
}

/** Every module with a screen, by label, for the module filter. */
export const AUDIT_MODULES: readonly AuditModule[] = [...labels.keys()]
  .map((module) => ({ module, label: moduleLabel(module) }))
  .sort((a, b) => a.label.localeCompare(b.label));

/** The detail screen of an entry's record, when its module has one and the user may open it; else null. */
export function recordPath(permissions: Permissions | null, module: string, recordId: number | null): string | null {
  if (recordId === null) return null;
  for (const area of AREAS) {
    const route = area.routes.find(
      (candidate) =>
        candidate.module === module && RECORD_ACTIONS.includes(candidate.action) && candidate.path.includes(':id'),
    );
    if (route && canAccess(permissions, route.module as ModuleKey, route.action))
      return generatePath(route.path, { id: String(recordId) });
  }
  return null;
}
