import { AREAS, RESOURCES, type RegistryArea, type RegistryEntity, type RegistryField, type RegistryResource } from './generated/registry.ts';

export type { RegistryArea, RegistryEntity, RegistryField, RegistryResource };
export { AREAS, RESOURCES };
export { MODULE } from '../contract/modules.ts';

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
  if (!schema) throw new Error(`The manifest gives ${module} no form for "${action}" (forms.${action}); the route that takes its body needs one.`);
  return schema;
}

export function isKnownPermission(module: string, action: string): boolean {
  return actionsOf(module).includes(action);
}

/** The stored field of `entity` whose relation points at `target`, if any. */
export function relationTo(entity: RegistryEntity, target: string): RegistryField | undefined {
  return entity.fields.find((field) => field.relation?.resource === target);
}

export function field(entity: RegistryEntity, name: string): RegistryField | undefined {
  return entity.fields.find((candidate) => candidate.name === name);
}

/** The first of `names` the entity has, e.g. the column that holds a plan's price. */
export function firstField(entity: RegistryEntity, names: readonly string[]): RegistryField | undefined {
  for (const name of names) {
    const found = field(entity, name);
    if (found && !found.writeOnly) return found;
  }
  return undefined;
}

export function quoted(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
