/**
 * The resolved model the emitters receive: defaults applied, references resolved, every field present.
 * (What authors write is `AreaManifest`, generated from manifest.schema.json.)
 */
import type { Action, ScreenName } from './generated/manifest.ts';
import type { GenericScreen } from './vocabulary.ts';

export type JsonSchema = Record<string, unknown>;
export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

export interface FieldModel {
  name: string;
  title: string;
  type: FieldType;
  format: string | null;
  enum: readonly (string | number)[] | null;
  required: boolean;
  readOnly: boolean;
  writeOnly: boolean;
  /** id, is_active, created_at, updated_at */
  system: boolean;
  sqlType: string;
  relation: RelationModel | null;
}

export interface RelationModel {
  resource: string;
  labelField: string;
  table: string;
  api: string;
}

export interface EntityModel {
  table: string;
  /** The schema as authored. */
  schema: JsonSchema;
  /** What create accepts: the authored schema without read-only fields. */
  createSchema: JsonSchema;
  /** What update accepts: as create, with write-only fields (passwords) optional; the same object when equal. */
  updateSchema: JsonSchema;
  /** Authored fields then system fields. */
  fields: FieldModel[];
  unique: UniqueKeyModel[];
  writeOnly: string[];
}

/** A unique key: the fields whose values must be unique together (one field for a single-field key). */
export interface UniqueKeyModel {
  fields: string[];
  /** Its unique index in tables.sql, which a clash names as the violated constraint. */
  index: string;
}

export interface ListModel {
  columns: string[];
  search: string[];
  filters: string[];
  sort: { field: string; direction: 'asc' | 'desc' };
  pageSize: number;
}

export interface RouteModel {
  action: Action;
  /** Full path, e.g. /voucher-management/vouchers/:id/edit. */
  path: string;
  /** True when the path has no parameter, so it can be a landing path (ROUTE-10). */
  routable: boolean;
  screen: GenericScreen | ScreenName;
}

export interface ResourceModel {
  key: string;
  areaKey: string;
  label: string;
  singular: string;
  path: string;
  api: string;
  order: number;
  preload: boolean;
  actions: Action[];
  routes: RouteModel[];
  entity: EntityModel | null;
  list: ListModel | null;
  uiSchema: Record<string, unknown>;
  /** Request bodies of actions beyond create and update, by action. */
  forms: Partial<Record<Action, ActionFormModel>>;
  /** PascalCase name for types and validators, e.g. CompanyEmployeeContacts. */
  typeName: string;
}

export interface ActionFormModel {
  schema: JsonSchema;
  uiSchema: Record<string, unknown>;
}

export interface SidebarModel {
  link: string;
  label: string;
  fixed: boolean;
  icon: string;
}

export interface AreaModel {
  key: string;
  label: string;
  path: string;
  order: number;
  guard: 'authenticated' | 'guest' | 'none';
  layout: 'admin' | 'guest';
  preload: boolean;
  sidebar: SidebarModel | null;
  resources: ResourceModel[];
  /** The manifest file it came from, relative to the manifest folder. */
  file: string;
}

export interface ProjectModel {
  areas: AreaModel[];
  /** Every module key, areas and resources, sorted. */
  modules: string[];
  actions: Action[];
}
