import type { AreaManifest, Resource } from './generated/manifest.ts';
import type { LoadedArea } from './load.ts';
import {
  describeProject,
  moduleOrder,
  type AreaModel,
  type Currency,
  type EntityModel,
  type FieldModel,
  type FieldType,
  type FieldUnit,
  type JsonSchema,
  type ListModel,
  type ProjectModel,
  type RelationModel,
  type ResourceModel,
  type RouteModel,
  type UniqueKeyModel,
} from '../contract/description.ts';
import { writeOnlyFields } from '../contract/writtenDescription.ts';
import { tableName, uniqueIndexName } from './sqlNames.ts';
import { ACTIONS, GENERIC_SCREEN, ROUTE_SUFFIX } from './vocabulary.ts';
import { humanise } from '../contract/humanise.ts';

/** Turns a validated manifest into the model the emitters receive. Deterministic: sorted by order, then key. */
export function resolveManifest(areas: readonly LoadedArea[]): ProjectModel {
  const resources = new Map<string, { resource: Resource }>();
  for (const { document } of areas)
    for (const resource of document.resources) resources.set(resource.key, { resource });

  const relationTarget = (key: string): Omit<RelationModel, 'labelField'> => {
    const target = resources.get(key)?.resource;
    if (!target?.entity) throw new Error(`unresolved relation to ${key}: validate the manifest first`);
    return { resource: key, table: target.entity.table ?? tableName(key), api: target.api ?? target.path };
  };

  const resolved = areas.map(({ file, document }) => resolveArea(file, document, relationTarget));
  resolved.sort(byOrderThenKey);
  // From each area's own order, not its place among the others: adding an area renumbers no other area's files.
  for (const area of resolved) {
    area.moduleOrder = moduleOrder(area.order);
    area.resources.forEach(
      (resource, resourceIndex) => (resource.moduleOrder = moduleOrder(area.order, resourceIndex)),
    );
  }
  return describeProject(resolved, ACTIONS);
}

function resolveArea(
  file: string,
  area: AreaManifest,
  relationTarget: (key: string) => Omit<RelationModel, 'labelField'>,
): AreaModel {
  const resources = area.resources.map((resource, index) => resolveResource(area, resource, index, relationTarget));
  resources.sort(byOrderThenKey);
  return {
    key: area.key,
    label: area.label,
    path: area.path,
    order: area.order,
    guard: area.guard,
    layout: area.layout ?? 'admin',
    preload: area.preload ?? false,
    sidebar: area.sidebar
      ? {
          link: area.sidebar.link,
          label: area.sidebar.label ?? area.label,
          fixed: area.sidebar.fixed ?? false,
          group: area.sidebar.group ?? null,
          icon: area.sidebar.icon ?? 'folder',
        }
      : null,
    resources,
    file,
    moduleOrder: 0,
  };
}

function resolveResource(
  area: AreaManifest,
  resource: Resource,
  index: number,
  relationTarget: (key: string) => Omit<RelationModel, 'labelField'>,
): ResourceModel {
  const actions = ACTIONS.filter((action) => resource.actions.includes(action));
  const routes: RouteModel[] = [];
  for (const action of actions) {
    const suffix = ROUTE_SUFFIX[action];
    if (suffix === undefined) continue;
    const screen = resource.screens?.[action] ?? (resource.entity ? GENERIC_SCREEN[action] : undefined);
    if (!screen) continue;
    routes.push({ action, path: `/${area.path}/${resource.path}${suffix}`, routable: !suffix.includes(':'), screen });
  }
  const entity = resource.entity ? resolveEntity(resource, relationTarget) : null;
  return {
    key: resource.key,
    areaKey: area.key,
    label: resource.label,
    singular: resource.singular ?? resource.label,
    path: resource.path,
    api: resource.api ?? resource.path,
    order: resource.order ?? index,
    preload: resource.preload ?? false,
    actions,
    routes,
    entity,
    list: entity ? resolveList(resource, entity) : null,
    describe: (resource.describe ?? []).map((part) => (typeof part === 'string' ? [part] : part)),
    uiSchema: (resource.uiSchema ?? {}) as Record<string, unknown>,
    forms: Object.fromEntries(
      actions
        .filter((action) => resource.forms?.[action])
        .map((action) => [
          action,
          {
            schema: resource.forms![action]!.schema as JsonSchema,
            uiSchema: (resource.forms![action]!.uiSchema ?? {}) as Record<string, unknown>,
          },
        ]),
    ),
    typeName: pascalCase(resource.key),
    moduleOrder: 0,
  };
}

function resolveEntity(
  resource: Resource,
  relationTarget: (key: string) => Omit<RelationModel, 'labelField'>,
): EntityModel {
  const authoredEntity = resource.entity!;
  const schema = authoredEntity.schema as JsonSchema;
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const writeOnly = authoredEntity.writeOnly ?? [];
  const relations = authoredEntity.relations ?? {};

  const fields: FieldModel[] = Object.entries(properties).map(([name, property]) => {
    const relation = relations[name];
    const type = fieldType(property);
    const format = typeof property.format === 'string' ? property.format : null;
    return {
      name,
      title: typeof property.title === 'string' ? property.title : humanise(name),
      type,
      format,
      enum: Array.isArray(property.enum) ? (property.enum as (string | number)[]) : null,
      enumLabels: enumLabelsOf(property),
      ...(property.valueUnit === undefined ? {} : { unit: property.valueUnit as FieldUnit }),
      ...(format === 'money' ? { currency: property.currency as Currency } : {}),
      ...(property.normalise === 'upper' || property.normalise === 'mobile' ? { normalise: property.normalise } : {}),
      required: required.has(name),
      readOnly: property.readOnly === true,
      writeOnly: writeOnly.includes(name),
      system: false,
      sqlType: relation ? 'bigint' : sqlType(type, format),
      relation: relation ? { ...relationTarget(relation.resource), labelField: relation.labelField } : null,
    };
  });
  fields.push(
    systemField('id', 'ID', 'integer', 'bigint'),
    systemField('is_active', 'Active', 'boolean', 'boolean'),
    systemField('created_at', 'Created', 'string', 'timestamptz', 'date-time'),
    systemField('updated_at', 'Updated', 'string', 'timestamptz', 'date-time'),
    systemField('version', 'Version', 'integer', 'integer'),
  );

  const writable = Object.fromEntries(Object.entries(properties).filter(([, property]) => property.readOnly !== true));
  const readOnlyProperties = Object.fromEntries(
    Object.entries(properties).filter(([, property]) => property.readOnly === true),
  );
  const createSchema: JsonSchema = {
    ...schema,
    properties: writable,
    required: [...required].filter((name) => name in writable),
  };
  const updateRequired = (createSchema.required as string[]).filter((name) => !writeOnly.includes(name));
  // The same object when nothing differs, so emitters write the schema (and its validator) once.
  const updateSchema: JsonSchema =
    updateRequired.length === (createSchema.required as string[]).length
      ? createSchema
      : { ...createSchema, required: updateRequired };
  const table = authoredEntity.table ?? tableName(resource.key);
  const unique = (authoredEntity.unique ?? []).map((key): UniqueKeyModel => {
    const keyFields = typeof key === 'string' ? [key] : [...key];
    return { fields: keyFields, index: uniqueIndexName(table, keyFields) };
  });
  return {
    table,
    readOnlyProperties,
    createSchema,
    updateSchema,
    fields,
    unique,
    writeOnly: writeOnlyFields(fields),
    history: authoredEntity.history ?? true,
    softDelete: authoredEntity.softDelete ?? true,
  };
}

function resolveList(resource: Resource, entity: EntityModel): ListModel {
  const list = resource.list;
  const firstColumns = entity.fields
    .filter((field) => !field.system && !field.writeOnly)
    .slice(0, 4)
    .map((field) => field.name);
  return {
    columns: list?.columns ?? [...firstColumns, 'is_active'],
    search: list?.search ?? [],
    filters: list?.filters ?? [],
    sort: { field: list?.sort?.field ?? 'id', direction: list?.sort?.direction ?? 'asc' },
    pageSize: list?.pageSize ?? 20,
    bulkEdit: list?.bulkEdit ?? [],
    ...(list?.priority ? { priority: list.priority } : {}),
  };
}

function systemField(
  name: string,
  title: string,
  type: FieldType,
  sql: string,
  format: string | null = null,
): FieldModel {
  return {
    name,
    title,
    type,
    format,
    enum: null,
    enumLabels: null,
    required: false,
    readOnly: true,
    writeOnly: false,
    system: true,
    sqlType: sql,
    relation: null,
  };
}

function fieldType(property: JsonSchema): FieldType {
  const type = Array.isArray(property.type) ? property.type.find((candidate) => candidate !== 'null') : property.type;
  if (type === 'integer' || type === 'number' || type === 'boolean' || type === 'array' || type === 'object')
    return type;
  return 'string';
}

function sqlType(type: FieldType, format: string | null): string {
  switch (type) {
    case 'integer':
      return 'bigint';
    case 'number':
      return 'double precision';
    case 'boolean':
      return 'boolean';
    case 'array':
    case 'object':
      return 'jsonb';
    default:
      return format === 'date' ? 'date' : format === 'date-time' ? 'timestamptz' : 'text';
  }
}

function byOrderThenKey(a: { order: number; key: string }, b: { order: number; key: string }): number {
  return a.order - b.order || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

export function pascalCase(key: string): string {
  return key
    .toLowerCase()
    .split(/[_-]+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/** What people call each value of an enum field: its `enumLabels`, or, where the manifest gives none, the value in words. */
function enumLabelsOf(property: Record<string, unknown>): Record<string, string> | null {
  if (!Array.isArray(property.enum)) return null;
  const authored = (property.enumLabels ?? {}) as Record<string, string>;
  return Object.fromEntries(
    property.enum.map((value) => [
      String(value),
      Object.hasOwn(authored, String(value)) ? authored[String(value)]! : inWords(String(value)),
    ]),
  );
}

/** "north_east" → "North east". */
function inWords(value: string): string {
  const words = value.replace(/_/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
