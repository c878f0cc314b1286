import { SCREEN_NAMES } from '../vocabulary.ts';
import { literal, tsHeader } from './header.ts';

/** src/generated/types.ts: the shapes of the generated route table and resource descriptions. */
export function emitTypes(): string {
  return `${tsHeader()}
import type { ActionName, ModuleKey } from './permissions.ts';

export type GenericScreen = 'list' | 'detail' | 'form';

/** Screens written for a module beyond the generic list, detail and form, plugged in by name. */
export const CUSTOM_SCREENS = ${literal(SCREEN_NAMES)} as const;

export type CustomScreen = (typeof CUSTOM_SCREENS)[number];

export type ScreenName = GenericScreen | CustomScreen;

export type JsonSchema = Record<string, unknown>;

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
  /** The area's own chunk, loaded on first visit (ROUTE-06). */
  load: () => Promise<AreaModule>;
}

export interface SidebarEntry {
  module: ModuleKey;
  label: string;
  /** As the spec gives it; unless fixed, the console sends the user to their default route under it. */
  link: string;
  fixed: boolean;
  icon: string;
  order: number;
}

export interface FieldDescription {
  name: string;
  title: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  format: string | null;
  enum: readonly (string | number)[] | null;
  required: boolean;
  readOnly: boolean;
  writeOnly: boolean;
  system: boolean;
  relation: { resource: ModuleKey; api: string; labelField: string } | null;
}

export interface EntityDescription {
  /** What create accepts (the form's schema). */
  createSchema: JsonSchema;
  /** What update accepts. */
  updateSchema: JsonSchema;
  fields: readonly FieldDescription[];
  /** Each unique key's fields: one for a single-field key, 2 or more unique together. */
  unique: readonly (readonly string[])[];
  validateCreate: PrecompiledValidator;
  validateUpdate: PrecompiledValidator;
}

export interface ListDescription {
  columns: readonly string[];
  search: readonly string[];
  filters: readonly string[];
  sort: { field: string; direction: 'asc' | 'desc' };
  pageSize: number;
}

/** The form of an action beyond create and update (e.g. ADD_TOP_UP), with its precompiled validator. */
export interface ActionFormDescription {
  schema: JsonSchema;
  uiSchema: Record<string, unknown>;
  validate: PrecompiledValidator;
}

export interface ResourceDescription {
  module: ModuleKey;
  area: ModuleKey;
  label: string;
  singular: string;
  /** API path under the versioned base, e.g. vouchers. */
  api: string;
  actions: readonly ActionName[];
  routes: Partial<Record<ActionName, string>>;
  entity: EntityDescription | null;
  list: ListDescription | null;
  uiSchema: Record<string, unknown>;
  forms: Partial<Record<ActionName, ActionFormDescription>>;
}

export interface AreaModule {
  module: ModuleKey;
  resources: readonly ResourceDescription[];
}
`;
}
