import manifestSchema from '../manifest/manifest.schema.json' with { type: 'json' };
import type { GenericScreen } from '../contract/description.ts';
import type { Action, ScreenName, SidebarIcon } from './generated/manifest.ts';

/** The permission action vocabulary (docs/spec/seed-spec.md section 3), read from the manifest schema: one source. */
export const ACTIONS = manifestSchema.$defs.action.enum as Action[];

/** What people call each action, in the role matrix and wherever an action is named to them. */
export const ACTION_LABELS: Record<Action, string> = {
  view: 'View',
  add: 'Add',
  edit: 'Edit',
  delete: 'Delete',
  ACTIVE_INACTIVE: 'Activate or deactivate',
  download: 'Download',
  view_detail: 'View detail',
  verify: 'Verify',
  refresh: 'Refresh',
  SUBSCRIBER_DETAIL: 'Subscriber detail',
  ADD_SUBSCRIPTION: 'Add subscription',
  ADD_TOP_UP: 'Add top-up',
  executive_access: 'Own subscribers only',
  import: 'Import',
};

/** Custom screen names the console provides, from the manifest schema. */
export const SCREEN_NAMES = manifestSchema.$defs.screenName.enum as ScreenName[];

/** The icons the console draws beside sidebar entries, from the manifest schema. */
export const SIDEBAR_ICONS = manifestSchema.$defs.sidebarIcon.enum as SidebarIcon[];

/** Actions that open a screen, with the route suffix under the resource path (ROUTE-09). */
export const ROUTE_SUFFIX: Partial<Record<Action, string>> = {
  view: '',
  add: '/add',
  view_detail: '/:id',
  edit: '/:id/edit',
  SUBSCRIBER_DETAIL: '/:id/details',
  import: '/import',
};

export const GENERIC_SCREEN: Partial<Record<Action, GenericScreen>> = {
  view: 'list',
  add: 'form',
  edit: 'form',
  view_detail: 'detail',
  SUBSCRIBER_DETAIL: 'detail',
  import: 'import',
};

/** Fields every stored entity has; the generator adds them, authors do not declare them. */
export const SYSTEM_FIELDS = ['id', 'is_active', 'created_at', 'updated_at', 'version'] as const;
