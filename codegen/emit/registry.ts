import type { ProjectModel } from '../model.ts';
import { literal, literalWithNames, tsHeader } from './header.ts';
import { searchExpression } from './tablesSql.ts';
import { formValidatorName } from './validators.ts';

/** server/generated/registry.ts: what the reference API serves for each module. */
export function emitRegistry(model: ProjectModel): string {
  const areas = model.areas.map((area) => ({
    key: area.key,
    label: area.label,
    path: area.path,
    order: area.order,
    sidebarLink: area.sidebar?.link ?? null,
    resources: area.resources.map((resource) => resource.key),
  }));
  const resources = model.areas.flatMap((area, areaIndex) =>
    area.resources.map((resource, resourceIndex) => ({
      key: resource.key,
      area: area.key,
      label: resource.label,
      singular: resource.singular,
      api: resource.api,
      // Sort key of the module in the permissions response (PERM-01).
      order: (areaIndex + 1) * 100 + resourceIndex + 1,
      actions: resource.actions,
      routes: Object.fromEntries(resource.routes.map((route) => [route.action, { path: route.path, routable: route.routable }])),
      entity: resource.entity
        ? {
            table: resource.entity.table,
            createSchema: resource.entity.createSchema,
            updateSchema: resource.entity.updateSchema,
            fields: resource.entity.fields.map((field) => ({
              name: field.name,
              title: field.title,
              type: field.type,
              format: field.format,
              sqlType: field.sqlType,
              required: field.required,
              readOnly: field.readOnly,
              writeOnly: field.writeOnly,
              system: field.system,
              relation: field.relation,
            })),
            unique: resource.entity.unique,
            writeOnly: resource.entity.writeOnly,
          }
        : null,
      list: resource.list,
      forms: Object.fromEntries(Object.entries(resource.forms).map(([action, form]) => [action, form.schema])),
      searchSql: resource.list && resource.list.search.length > 0 ? searchExpression(resource.list.search) : null,
    })),
  );
  // Entity and form schemas are hoisted so that an update schema equal to the create schema is written once.
  const schemaNames = new Map<object, string>();
  const schemaConsts: string[] = [];
  const hoist = (schema: object, name: string) => {
    if (schemaNames.has(schema)) return;
    schemaNames.set(schema, name);
    schemaConsts.push(`const ${name}: Record<string, unknown> = ${literal(schema)};\n`);
  };
  for (const resource of model.areas.flatMap((area) => area.resources)) {
    if (resource.entity) {
      hoist(resource.entity.createSchema, `${resource.typeName}CreateSchema`);
      hoist(resource.entity.updateSchema, `${resource.typeName}UpdateSchema`);
    }
    for (const [action, form] of Object.entries(resource.forms)) hoist(form.schema, `${formValidatorName(resource, action)}Schema`);
  }
  return `${tsHeader()}
export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

export interface RegistryField {
  name: string;
  title: string;
  type: FieldType;
  format: string | null;
  sqlType: string;
  required: boolean;
  readOnly: boolean;
  writeOnly: boolean;
  system: boolean;
  relation: { resource: string; labelField: string; table: string; api: string } | null;
}

export interface RegistryEntity {
  table: string;
  createSchema: Record<string, unknown>;
  updateSchema: Record<string, unknown>;
  fields: RegistryField[];
  /** Each unique key's fields (one for a single-field key) and its index, the constraint a clash names. */
  unique: { fields: string[]; index: string }[];
  writeOnly: string[];
}

export interface RegistryResource {
  key: string;
  area: string;
  label: string;
  singular: string;
  api: string;
  order: number;
  actions: string[];
  routes: Record<string, { path: string; routable: boolean }>;
  entity: RegistryEntity | null;
  list: { columns: string[]; search: string[]; filters: string[]; sort: { field: string; direction: 'asc' | 'desc' }; pageSize: number } | null;
  /** The request body schema of each action the manifest gives a form (\`forms\`), by action: what the console's form validates. */
  forms: Record<string, Record<string, unknown>>;
  /** The SQL expression a list search matches with ILIKE / trigram, the same one the search index covers. */
  searchSql: string | null;
}

export interface RegistryArea {
  key: string;
  label: string;
  path: string;
  order: number;
  sidebarLink: string | null;
  resources: string[];
}

export const AREAS: RegistryArea[] = ${literal(areas)};

${schemaConsts.join('\n')}
export const RESOURCES: RegistryResource[] = ${literalWithNames(resources, schemaNames)};
`;
}
