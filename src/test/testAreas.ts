import { vi } from 'vitest';
import type { ModuleKey } from '../generated/permissions.ts';
import type { AreaModule, AreaRoute, ModuleRoute, ResourceDescription } from '../generated/types.ts';
import type { Permissions } from '../permissions/types.ts';

const resource = (module: ModuleKey, area: ModuleKey, label: string) =>
  ({ module, area, label, singular: label }) as ResourceDescription;

function area(
  module: ModuleKey,
  path: string,
  guard: AreaRoute['guard'],
  preload: boolean,
  routes: ModuleRoute[],
  labels: Record<string, string>,
): AreaRoute {
  const chunk: AreaModule = {
    module,
    resources: Object.entries(labels).map(([key, label]) => resource(key as ModuleKey, module, label)),
  };
  const resources = routes
    .filter((route) => route.action === 'view' && route.routable)
    .map((route) => ({ module: route.module, label: labels[route.module] ?? route.module, path: route.path }));
  return {
    module,
    label: path,
    path,
    guard,
    layout: 'admin',
    preload,
    routes,
    resources,
    load: vi.fn(() => Promise.resolve(chunk)),
  };
}

/** Three small areas: one without a parent guard, two behind the authentication guard, one flagged for preloading. */
export function testAreas(): AreaRoute[] {
  return [
    area(
      'VOUCHER_MANAGEMENT',
      'voucher-management',
      'none',
      false,
      [
        { module: 'VOUCHER', action: 'view', path: '/voucher-management/vouchers', routable: true, screen: 'list' },
        { module: 'VOUCHER', action: 'add', path: '/voucher-management/vouchers/add', routable: true, screen: 'form' },
        {
          module: 'VOUCHER',
          action: 'edit',
          path: '/voucher-management/vouchers/:id/edit',
          routable: false,
          screen: 'form',
        },
      ],
      { VOUCHER: 'Vouchers' },
    ),
    area(
      'USER_MANAGEMENT',
      'user-management',
      'authenticated',
      true,
      [{ module: 'USERS', action: 'view', path: '/user-management/users', routable: true, screen: 'list' }],
      { USERS: 'Users' },
    ),
    area(
      'PROFILE_MANAGEMENT',
      'profile-management',
      'authenticated',
      false,
      [
        {
          module: 'USER_PROFILE',
          action: 'view',
          path: '/profile-management/profile',
          routable: true,
          screen: 'profile',
        },
      ],
      { USER_PROFILE: 'Profile' },
    ),
  ];
}

/** What GET user/permission answers for an admin of vouchers (view, add, edit) and users, with a profile. */
export const TEST_PERMISSIONS: Permissions = {
  VOUCHER_MANAGEMENT: { order: 1, actions: { view: { is_routable: false, route_url: '/voucher-management' } } },
  VOUCHER: {
    order: 2,
    actions: {
      view: { is_routable: true, route_url: '/voucher-management/vouchers' },
      add: { is_routable: true, route_url: '/voucher-management/vouchers/add' },
      edit: { is_routable: false, route_url: '/voucher-management/vouchers/:id/edit' },
    },
  },
  USER_MANAGEMENT: { order: 3, actions: { view: { is_routable: false, route_url: '/user-management' } } },
  USERS: { order: 4, actions: { view: { is_routable: true, route_url: '/user-management/users' } } },
  USER_PROFILE: { order: 9, actions: { view: { is_routable: true, route_url: '/profile-management/profile' } } },
};
