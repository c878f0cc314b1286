/**
 * The console's view of the generated description (contract/writtenDescription.ts, `ConsoleArea`): the same
 * resources, keyed by module, with each form's precompiled validator beside its schema. `areaModule` makes it from
 * an area's JSON.
 */
import type {
  ActionFormModel,
  EntityModel,
  GenericScreen,
  JsonSchema,
  ListModel,
  ResourceModel,
} from '../../contract/description.ts';
import type { ConsoleField } from '../../contract/writtenDescription.ts';
import type { ScreenName as CustomScreen, SidebarIcon } from '../../codegen/generated/manifest.ts';
import type { ActionName, ModuleKey } from '../generated/permissions.ts';

export type { GenericScreen, JsonSchema, SidebarIcon };

export type ScreenName = GenericScreen | CustomScreen;

/** A precompiled ajv validator (standalone code): no compiler and no eval in the browser. */
export interface PrecompiledValidator {
  (data: unknown): boolean;
  errors?: { keyword: string; instancePath: string; schemaPath: string; params: Record<string, unknown> }[] | null;
}

/** One screen of a module: the action it serves, its path and the screen that renders it (ROUTE-09). */
export interface ModuleRoute {
  module: ModuleKey;
  action: ActionName;
  /** Full path, e.g. /voucher-management/vouchers/:id/edit. */
  path: string;
  /** No parameter in the path, so it can be a landing path (ROUTE-10). */
  routable: boolean;
  screen: ScreenName;
}

/** A resource of an area as the navigation inside the area lists it: its view screen, under its label. */
export interface AreaResource {
  module: ModuleKey;
  label: string;
  /** The resource's view path, e.g. /masters/lookups. */
  path: string;
}

export interface AreaRoute {
  module: ModuleKey;
  label: string;
  /** First path segment, e.g. voucher-management. */
  path: string;
  guard: 'authenticated' | 'guest' | 'none';
  layout: 'admin' | 'guest';
  /** Load this area's chunk after the first screen renders (ROUTE-08). */
  preload: boolean;
  routes: readonly ModuleRoute[];
  /** The resources with a routable view screen, in manifest order. */
  resources: readonly AreaResource[];
  /** The area's own chunk, loaded on first visit (ROUTE-06). */
  load: () => Promise<AreaModule>;
}

export interface SidebarEntry {
  module: ModuleKey;
  label: string;
  /** As docs/spec/seed-spec.md gives it; unless fixed, the console sends the user to their default route under it. */
  link: string;
  fixed: boolean;
  /** The heading the entry sits under; null: none. */
  group: string | null;
  icon: SidebarIcon;
  order: number;
}

export interface FieldDescription extends Omit<ConsoleField, 'relation'> {
  relation: { resource: ModuleKey; api: string; labelField: string } | null;
}

export interface EntityDescription extends Pick<
  EntityModel,
  'createSchema' | 'updateSchema' | 'history' | 'softDelete'
> {
  fields: readonly FieldDescription[];
  validateCreate: PrecompiledValidator;
  validateUpdate: PrecompiledValidator;
}

export type ListDescription = Readonly<ListModel>;

/** The form of an action beyond create and update (e.g. ADD_TOP_UP), with its precompiled validator. */
export interface ActionFormDescription extends ActionFormModel {
  validate: PrecompiledValidator;
}

export interface ResourceDescription extends Pick<ResourceModel, 'label' | 'singular' | 'api' | 'uiSchema'> {
  module: ModuleKey;
  area: ModuleKey;
  actions: readonly ActionName[];
  /** The path of each action's screen. */
  routes: Partial<Record<ActionName, string>>;
  entity: EntityDescription | null;
  list: ListDescription | null;
  forms: Partial<Record<ActionName, ActionFormDescription>>;
}

export interface AreaModule {
  module: ModuleKey;
  resources: readonly ResourceDescription[];
}

/**
 * What an area's chunk holds (src/generated/areas/<area>.ts): its description as written and, by module, the
 * precompiled validators of the resources that have any. The shell joins them (`joinArea`) as the chunk arrives.
 */
export interface AreaChunk {
  written: unknown;
  validators?: Partial<Record<string, ResourceValidators>>;
}

/** The precompiled validators of one resource, as an area chunk hands them to `joinArea`. */
export interface ResourceValidators {
  create?: PrecompiledValidator;
  update?: PrecompiledValidator;
  forms?: Partial<Record<string, PrecompiledValidator>>;
}
