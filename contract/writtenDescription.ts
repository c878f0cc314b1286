/**
 * How an area's description (description.ts) is written to disk and read back. It is split by reader so that the
 * console's chunk carries only what the console reads:
 * - `src/generated/areas/<area>.json`, the console's facts (`ConsoleArea`), read by the console and the server alike,
 *   in the shape the console uses, so an area with nothing to join (no entity, no form) is its JSON and no code;
 * - `server/generated/areas/<area>.json`, the facts only the server reads (`ServerAreaFacts`: the area's own
 *   settings, tables, column types, unique keys, which fields are read-only, each route's screen, sort
 *   keys), which the console never imports.
 * A fact is in one file only. An update schema that is the create schema is left out and `readAreaDescription`,
 * which both sides call, puts the same object back. Fields' default values (nulls, falses) are written out: gzip
 * makes them cheaper than the code that would put them back, which every area's chunk would load.
 */
import type { Action } from '../codegen/generated/manifest.ts';
import type { AreaModel, EntityModel, FieldModel, RelationModel, ResourceModel, RouteModel } from './description.ts';

export type ConsoleRelation = Omit<RelationModel, 'table'>;

export interface ConsoleField extends Omit<FieldModel, 'sqlType' | 'relation' | 'readOnly'> {
  relation: ConsoleRelation | null;
}

export interface ConsoleEntity extends Pick<EntityModel, 'createSchema' | 'updateSchema' | 'history' | 'softDelete'> {
  fields: ConsoleField[];
}

export interface ConsoleResource extends Pick<
  ResourceModel,
  'label' | 'singular' | 'api' | 'actions' | 'list' | 'uiSchema' | 'forms'
> {
  /** The resource's key. */
  module: string;
  /** Its area's key. */
  area: string;
  /** The path of each action's screen. */
  routes: Partial<Record<Action, string>>;
  entity: ConsoleEntity | null;
}

export interface ConsoleArea {
  /** The area's key. */
  module: string;
  resources: ConsoleResource[];
}

/** An entity as its file holds it: the update schema only where it is not the create schema. */
type WrittenEntity = Omit<ConsoleEntity, 'updateSchema'> & Partial<Pick<ConsoleEntity, 'updateSchema'>>;

type WrittenResource = Omit<ConsoleResource, 'entity'> & { entity: WrittenEntity | null };

export interface ServerAreaFacts extends Omit<AreaModel, 'key' | 'resources'> {
  /** By module key: joined to the console file's resource of the same key. */
  resources: Record<string, ServerResourceFacts>;
}

export interface ServerResourceFacts extends Pick<
  ResourceModel,
  'path' | 'order' | 'preload' | 'typeName' | 'moduleOrder' | 'describe'
> {
  /** Each route's screen and whether it can be a landing path, by action (its path is in the console's file). */
  routes: Partial<Record<Action, Pick<RouteModel, 'routable' | 'screen'>>>;
  entity: ServerEntityFacts | null;
}

export interface ServerEntityFacts extends Pick<EntityModel, 'table' | 'readOnlyProperties' | 'unique'> {
  /**
   * What only the server reads of each field, by name, joined to the console file's field of that name (the console's
   * forms take the create schema, which leaves read-only fields out).
   */
  fields: Record<string, Pick<FieldModel, 'sqlType' | 'readOnly'>>;
  /** The table of each relation field's target, by field. */
  relationTables: Record<string, string>;
}

/** The names of an entity's write-only fields (the model's `EntityModel.writeOnly`), in field order. */
export function writeOnlyFields(fields: readonly Pick<FieldModel, 'name' | 'writeOnly'>[]): string[] {
  return fields.filter((field) => field.writeOnly).map((field) => field.name);
}

/** The two files of an area, as text. */
export function writeAreaDescription(area: AreaModel): { console: string; server: string } {
  const { key, resources, ...areaFacts } = area;
  const written = { module: key, resources: resources.map(consoleResource) };
  const facts: ServerAreaFacts = {
    ...areaFacts,
    resources: Object.fromEntries(resources.map((resource) => [resource.key, serverResourceFacts(resource)])),
  };
  return { console: `${JSON.stringify(written, null, 2)}\n`, server: `${JSON.stringify(facts, null, 2)}\n` };
}

function consoleResource(resource: ResourceModel): WrittenResource {
  const { entity } = resource;
  return {
    module: resource.key,
    area: resource.areaKey,
    label: resource.label,
    singular: resource.singular,
    api: resource.api,
    actions: resource.actions,
    routes: Object.fromEntries(resource.routes.map((route) => [route.action, route.path])),
    entity: entity
      ? {
          createSchema: entity.createSchema,
          ...(entity.updateSchema === entity.createSchema ? {} : { updateSchema: entity.updateSchema }),
          history: entity.history,
          softDelete: entity.softDelete,
          fields: entity.fields.map(({ sqlType: _column, readOnly: _readOnly, relation, ...field }) => ({
            ...field,
            relation: relation && { resource: relation.resource, labelField: relation.labelField, api: relation.api },
          })),
        }
      : null,
    list: resource.list,
    uiSchema: resource.uiSchema,
    forms: resource.forms,
  };
}

function serverResourceFacts(resource: ResourceModel): ServerResourceFacts {
  const { entity } = resource;
  return {
    path: resource.path,
    order: resource.order,
    preload: resource.preload,
    typeName: resource.typeName,
    moduleOrder: resource.moduleOrder,
    describe: resource.describe,
    routes: Object.fromEntries(
      resource.routes.map((route) => [route.action, { routable: route.routable, screen: route.screen }]),
    ),
    entity: entity && {
      table: entity.table,
      readOnlyProperties: entity.readOnlyProperties,
      unique: entity.unique,
      fields: Object.fromEntries(entity.fields.map(({ name, sqlType, readOnly }) => [name, { sqlType, readOnly }])),
      relationTables: Object.fromEntries(
        entity.fields.flatMap((field) => (field.relation ? [[field.name, field.relation.table]] : [])),
      ),
    },
  };
}

/** The console's file of an area, with what was left out put back: what the console and the server read. */
export function readAreaDescription(written: unknown): ConsoleArea {
  const area = written as { module: string; resources: WrittenResource[] };
  for (const { entity } of area.resources) if (entity) entity.updateSchema ??= entity.createSchema;
  return area as ConsoleArea;
}

/**
 * An area's model from its two files: the server's reading of the description. The files are joined by module key and
 * field name, and each must have what the other has: a file edited by hand, or the two written by different runs of
 * the generator, stops the server naming what does not match.
 */
export function joinAreaDescription(written: unknown, serverFacts: unknown): AreaModel {
  const { module, resources } = readAreaDescription(written);
  const facts = serverFacts as ServerAreaFacts;
  sameKeys(
    `area ${module}: resources`,
    resources.map((resource) => resource.module),
    Object.keys(facts.resources),
  );
  return {
    key: module,
    ...facts,
    resources: resources.map((resource) => resourceModel(resource, facts.resources[resource.module]!)),
  };
}

/** Throws naming what one file has and the other lacks. */
function sameKeys(what: string, consoleKeys: readonly string[], serverKeys: readonly string[]): void {
  const onlyConsole = consoleKeys.filter((key) => !serverKeys.includes(key));
  const onlyServer = serverKeys.filter((key) => !consoleKeys.includes(key));
  if (onlyConsole.length === 0 && onlyServer.length === 0) return;
  const parts = [
    onlyConsole.length ? `only in the console's file: ${onlyConsole.join(', ')}` : '',
    onlyServer.length ? `only in the server's file: ${onlyServer.join(', ')}` : '',
  ];
  throw new Error(
    `The generated description does not match itself (${what}; ${parts.filter(Boolean).join('; ')}): run npm run generate.`,
  );
}

function resourceModel(
  { module, area, routes, entity, ...resource }: ConsoleResource,
  facts: ServerResourceFacts,
): ResourceModel {
  return {
    key: module,
    areaKey: area,
    ...resource,
    ...facts,
    routes: Object.entries(routes).map(([action, path]): RouteModel => ({
      action: action as Action,
      path,
      ...facts.routes[action as Action]!,
    })),
    entity: entity && entityModel(module, entity, facts.entity!),
  };
}

function entityModel(module: string, { fields, ...entity }: ConsoleEntity, facts: ServerEntityFacts): EntityModel {
  const { fields: serverFields, relationTables, ...entityFacts } = facts;
  sameKeys(
    `module ${module}: fields`,
    fields.map((field) => field.name),
    Object.keys(serverFields),
  );
  const modelFields = fields.map(({ relation, ...field }): FieldModel => ({
    ...field,
    ...serverFields[field.name]!,
    relation: relation && { ...relation, table: relationTables[field.name]! },
  }));
  return { ...entity, ...entityFacts, fields: modelFields, writeOnly: writeOnlyFields(modelFields) };
}
