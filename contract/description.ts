/**
 * The description of every area and resource: the manifest resolved (defaults applied, references resolved, every
 * field present). Codegen writes it once, as data, in two files per area (see writtenDescription.ts): what the console
 * reads, which the server reads too, and what only the server reads; the console's area chunks, the server's registry
 * and the OpenAPI document all read it. (What authors write is `AreaManifest`, generated from manifest.schema.json.)
 */
import type { Action, ScreenName, SidebarIcon } from '../codegen/generated/manifest.ts';

export type GenericScreen = 'list' | 'detail' | 'form' | 'trash' | 'import';

export type JsonSchema = Record<string, unknown>;
export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

export interface FieldModel {
  name: string;
  title: string;
  type: FieldType;
  format: string | null;
  enum: readonly (string | number)[] | null;
  /** What people read for each enum value (its code as key): the manifest's `enumLabels`, else the value in words. */
  enumLabels: Readonly<Record<string, string>> | null;
  /** What a number counts, as people read it (the manifest's `valueUnit`); absent for any other field. */
  unit?: FieldUnit;
  /** The currency of an amount of money (`format: "money"`, the manifest's `currency`); absent for any other field. */
  currency?: Currency;
  /**
   * The one form the value is stored in (the manifest's `normalise`): "upper", capitals, upper-cased as typed;
   * "mobile", a mobile number's ten digits, put so when the field is left. The server does the same on every write.
   */
  normalise?: 'upper' | 'mobile';
  required: boolean;
  readOnly: boolean;
  writeOnly: boolean;
  /** id, is_active, created_at, updated_at, version */
  system: boolean;
  sqlType: string;
  relation: RelationModel | null;
}

/** The currencies a money field may be in (ISO 4217): the service bills in Indian rupees. */
export type Currency = 'INR';

/** Rupees (₹1,234.50) or a percentage (13%). */
export type UnitName = 'rupees' | 'percent';

/** A number's unit, or the unit by the value of an enum sibling (`field`): a voucher's discount by its type. */
export type FieldUnit = UnitName | { field: string; units: Readonly<Partial<Record<string, UnitName>>> };

export interface RelationModel {
  resource: string;
  labelField: string;
  table: string;
  api: string;
}

export interface EntityModel {
  table: string;
  /** The authored schemas of the read-only fields, which create and update do not accept (see `authoredProperty`). */
  readOnlyProperties: Record<string, JsonSchema>;
  /** What create accepts: the authored schema without read-only fields. */
  createSchema: JsonSchema;
  /** What update accepts: as create, with write-only fields (passwords) optional; the same object when equal. */
  updateSchema: JsonSchema;
  /** Authored fields then system fields. */
  fields: FieldModel[];
  unique: UniqueKeyModel[];
  writeOnly: string[];
  /** Each change's entry holds the record as it became: its history, with restore (manifest `history`, default true). */
  history: boolean;
  /** Delete moves the record to its trash (manifest `softDelete`, default true). */
  softDelete: boolean;
}

/** A unique key: the fields whose values must be unique together (one field for a single-field key). */
export interface UniqueKeyModel {
  fields: string[];
  /** Its unique index (made by the manifest's migrations), which a clash names as the violated constraint. */
  index: string;
}

export interface ListModel {
  columns: string[];
  search: string[];
  filters: string[];
  sort: { field: string; direction: 'asc' | 'desc' };
  pageSize: number;
  /** Fields "Set field" may give one value on every matching record (the bulk endpoint). */
  bulkEdit: string[];
  /**
   * The columns that matter most, most important first; the others follow in their `columns` order (none named: the
   * order of `columns`). A narrow list hides columns from the least important up; a phone's row shows the first few.
   */
  priority?: string[];
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
  /** What tells a found record from others with a like label: parts in order, each its fields read together (manifest `describe`). */
  describe: string[][];
  uiSchema: Record<string, unknown>;
  /** Request bodies of actions beyond create and update, by action. */
  forms: Partial<Record<Action, ActionFormModel>>;
  /** PascalCase name for types and validators, e.g. CompanyEmployeeContacts. */
  typeName: string;
  /** Sort key of the module in the permissions answer (PERM-01): see `moduleOrder`. */
  moduleOrder: number;
}

export interface ActionFormModel {
  schema: JsonSchema;
  uiSchema: Record<string, unknown>;
}

export interface SidebarModel {
  link: string;
  label: string;
  fixed: boolean;
  /** The heading the entry sits under; null: none. */
  group: string | null;
  icon: SidebarIcon;
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
  /** Sort key of the module in the permissions answer (PERM-01): see `moduleOrder`. */
  moduleOrder: number;
}

export interface ProjectModel {
  areas: AreaModel[];
  /** Every module key, areas and resources, sorted. */
  modules: string[];
  actions: Action[];
}

/**
 * Sort key of a module in the permissions answer (PERM-01): the area's manifest `order` × 100, plus its resource's
 * place in the area. Areas of the same order tie, and keep the order of their keys (the answer's and the registry's).
 */
export function moduleOrder(areaOrder: number, resourceIndex: number | null = null): number {
  return (areaOrder + 1) * 100 + (resourceIndex === null ? 0 : resourceIndex + 1);
}

/** A stored field's schema as authored: from the create schema, or the read-only ones; none for a system field. */
export function authoredProperty(entity: EntityModel, name: string): JsonSchema | undefined {
  const writable = (entity.createSchema.properties ?? {}) as Record<string, JsonSchema>;
  return Object.hasOwn(writable, name) ? writable[name] : entity.readOnlyProperties[name];
}

/** The project of a set of areas: every module key, sorted, and the action vocabulary. */
export function describeProject(areas: AreaModel[], actions: readonly Action[]): ProjectModel {
  const modules = areas.flatMap((area) => [area.key, ...area.resources.map((resource) => resource.key)]).sort();
  return { areas, modules, actions: [...actions] };
}
