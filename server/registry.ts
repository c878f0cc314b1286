import { searchExpression } from '../codegen/sqlNames.ts';
import { AREA_DESCRIPTIONS } from './generated/areas/index.ts';
import { joinAreaDescription } from '../contract/writtenDescription.ts';
import { type AreaModel, type EntityModel, type FieldModel, type ResourceModel } from '../contract/description.ts';
import { dataShape, type DataShape } from '../contract/dataShape.ts';

export {
  DATA_COLUMN_FIELDS,
  DATA_UPLOAD_FIELDS,
  MODULE,
  ROLE_FIELDS,
  SUBSCRIBER_FIELDS,
  SUBSCRIPTION_PLAN_FIELDS,
  VOUCHER_FIELDS,
  type DiscountType,
  type SubscriberStatus,
} from '../contract/modules.ts';

export type RegistryField = FieldModel;
export type RegistryEntity = EntityModel;

/**
 * A resource as the server uses it: its description under the description's own names (`areaKey`, `moduleOrder`, the
 * permissions answer's sort key), with its routes and forms keyed by action.
 */
export interface RegistryResource extends Omit<ResourceModel, 'actions' | 'routes' | 'forms'> {
  actions: string[];
  routes: Record<string, { path: string; routable: boolean }>;
  /** The request body schema of each action the manifest gives a form (`forms`), by action: what the console's form validates. */
  forms: Record<string, Record<string, unknown>>;
  /** The SQL expression a list search matches with ILIKE / trigram, the same one the search index covers. */
  searchSql: string | null;
}

export interface RegistryArea {
  key: string;
  label: string;
  path: string;
  order: number;
  /** Sort key of the area in the permissions answer (PERM-01). */
  moduleOrder: number;
  sidebarLink: string | null;
  resources: string[];
}

/** The generated description of every area (src/generated/areas/*.json and server/generated/areas/*.json), in module order. */
export const DESCRIPTION: AreaModel[] = readDescription(AREA_DESCRIPTIONS);

/** What the tables must hold for this description: the shape the last manifest migration must leave (checked at start). */
export const DATA_SHAPE: DataShape = dataShape(DESCRIPTION);

export const AREAS: RegistryArea[] = DESCRIPTION.map((area) => ({
  key: area.key,
  label: area.label,
  path: area.path,
  order: area.order,
  moduleOrder: area.moduleOrder,
  sidebarLink: area.sidebar?.link ?? null,
  resources: area.resources.map((resource) => resource.key),
}));

export const RESOURCES: RegistryResource[] = DESCRIPTION.flatMap((area) => area.resources.map(registryResource));

/** The areas' descriptions as written, each joined from its two files (see `joinAreaDescription`), in module order. */
export function readDescription(written: readonly { written: unknown; serverFacts: unknown }[]): AreaModel[] {
  return written
    .map((area) => joinAreaDescription(area.written, area.serverFacts))
    .sort((a, b) => a.moduleOrder - b.moduleOrder);
}

function registryResource({ routes, forms, ...resource }: ResourceModel): RegistryResource {
  return {
    ...resource,
    routes: Object.fromEntries(routes.map((route) => [route.action, { path: route.path, routable: route.routable }])),
    forms: Object.fromEntries(Object.entries(forms).map(([action, form]) => [action, form.schema])),
    searchSql: resource.list && resource.list.search.length > 0 ? searchExpression(resource.list.search) : null,
  };
}

/** A resource that is stored in a table, so it gets the generic endpoints. */
export type EntityResource = RegistryResource & { entity: RegistryEntity; list: NonNullable<RegistryResource['list']> };

const byKey = new Map(RESOURCES.map((resource) => [resource.key, resource]));
const areaByKey = new Map(AREAS.map((area) => [area.key, area]));

export function resource(key: string): RegistryResource | undefined {
  return byKey.get(key);
}

export function area(key: string): RegistryArea | undefined {
  return areaByKey.get(key);
}

export function entityResource(key: string): EntityResource | undefined {
  const found = byKey.get(key);
  return found && isEntityResource(found) ? found : undefined;
}

export function isEntityResource(candidate: RegistryResource): candidate is EntityResource {
  return candidate.entity !== null && candidate.list !== null;
}

export const ENTITY_RESOURCES: EntityResource[] = RESOURCES.filter(isEntityResource);

/** The actions a module offers: a resource's own, `view` for an area (the generated MODULE_ACTIONS). */
export function actionsOf(module: string): readonly string[] {
  const found = byKey.get(module);
  if (found) return found.actions;
  return areaByKey.has(module) ? ['view'] : [];
}

/** The manifest's form for an action of a module: the request body schema the console's form validates. */
export function actionFormSchema(module: string, action: string): Record<string, unknown> {
  const schema = byKey.get(module)?.forms[action];
  if (!schema)
    throw new Error(
      `The manifest gives ${module} no form for "${action}" (forms.${action}); the route that takes its body needs one.`,
    );
  return schema;
}

/** The stored field of `entity` whose relation points at `target`, if any. */
export function relationTo(entity: RegistryEntity, target: string): RegistryField | undefined {
  return entity.fields.find((field) => field.relation?.resource === target);
}

export function field(entity: RegistryEntity, name: string): RegistryField | undefined {
  return entity.fields.find((candidate) => candidate.name === name);
}
