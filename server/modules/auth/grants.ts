import { HOME_PATH, visibleHomeCards } from '../../../contract/home.ts';
import { NARROWING_ACTIONS } from '../../../contract/modules.ts';
import { AREAS, RESOURCES, actionsOf } from '../../registry.ts';

/** What a role may do: `MODULE:action` pairs, from role_permissions. */
export class Grants {
  private readonly pairs: Set<string>;

  constructor(pairs: Iterable<string>) {
    this.pairs = new Set(pairs);
  }

  /**
   * What an API token of this role's user may do: the pairs it names that the role still grants, never `excluded`
   * modules, and every narrowing action the role has whether the token names it or not.
   */
  narrowedTo(named: Record<string, readonly string[]>, excluded: ReadonlySet<string>): Grants {
    const kept = [...this.pairs].filter((pair) => {
      const [module = '', action = ''] = pair.split(':');
      if (excluded.has(module)) return false;
      return NARROWING_ACTIONS.has(action) || (named[module]?.includes(action) ?? false);
    });
    return new Grants(kept);
  }

  can(module: string, action: string): boolean {
    return this.pairs.has(`${module}:${action}`);
  }

  canAny(module: string): boolean {
    return actionsOf(module).some((action) => this.can(module, action));
  }
}

export interface PermissionAction {
  is_routable: boolean;
  route_url: string;
}

export interface ModulePermission {
  order: number;
  actions: Record<string, PermissionAction>;
}

/**
 * The `user/permission` answer (PERM-01): every module the role has an action in, with each action's route.
 * An area appears with `view` when its own view is granted or when the role has any of its resources,
 * pointing at the first routable screen of those.
 */
export function permissionMap(grants: Grants): Record<string, ModulePermission> {
  const data: Record<string, ModulePermission> = {};
  for (const area of AREAS) {
    let firstRoute: string | null = null;
    for (const key of area.resources) {
      const resource = RESOURCES.find((candidate) => candidate.key === key);
      if (!resource) continue;
      const actions: Record<string, PermissionAction> = {};
      for (const action of resource.actions) {
        if (!grants.can(resource.key, action)) continue;
        const route = resource.routes[action];
        actions[action] = {
          is_routable: route?.routable ?? false,
          route_url: route?.path ?? resource.routes.view?.path ?? `/${area.path}`,
        };
        if (route?.routable && firstRoute === null) firstRoute = route.path;
      }
      if (Object.keys(actions).length > 0) data[resource.key] = { order: resource.moduleOrder, actions };
    }
    if (firstRoute !== null || grants.can(area.key, 'view')) {
      data[area.key] = {
        order: area.moduleOrder,
        actions: {
          view: { is_routable: firstRoute !== null, route_url: firstRoute ?? area.sidebarLink ?? `/${area.path}` },
        },
      };
    }
  }
  return data;
}

/**
 * The landing path after login (ROUTE-15): the home screen when the user has a card on it, else their first routable
 * path in module order.
 */
export function defaultUrl(grants: Grants): string {
  if (visibleHomeCards((module, action) => grants.can(module, action)).length > 0) return HOME_PATH;
  const sorted = [...RESOURCES].sort((a, b) => a.moduleOrder - b.moduleOrder);
  for (const resource of sorted) {
    for (const action of ['view', ...resource.actions]) {
      const route = resource.routes[action];
      if (route?.routable && grants.can(resource.key, action)) return route.path;
    }
  }
  return '/profile-management/profile';
}
