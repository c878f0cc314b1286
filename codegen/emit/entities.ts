import {
  authoredProperty,
  type JsonSchema,
  type ProjectModel,
  type ResourceModel,
} from '../../contract/description.ts';
import { tsHeader } from './header.ts';
import { indentTs } from './indentTs.ts';
import { plainInterface } from './plainInterface.ts';

/** src/generated/entities.ts: one interface per stored entity, as the API returns it. */
export async function emitEntities(model: ProjectModel): Promise<string> {
  const resources = model.areas.flatMap((area) => area.resources).filter((resource) => resource.entity);
  const declarations = await Promise.all(resources.map((resource) => entityInterface(resource)));
  return `${tsHeader()}${declarations.map((declaration) => `\n${indentTs(declaration.trim())}\n`).join('')}`;
}

async function entityInterface(resource: ResourceModel): Promise<string> {
  const schema = entitySchema(resource);
  const plain = plainInterface(resource.typeName, schema);
  if (plain !== null) return plain;
  // Loaded only for an entity with a field beyond the plain kinds: the package takes a fifth of a run to load.
  const { compile } = await import('json-schema-to-typescript');
  return compile(schema as never, resource.typeName, ENTITY_INTERFACE_OPTIONS);
}

/** How json-schema-to-typescript is asked for an entity's interface. */
export const ENTITY_INTERFACE_OPTIONS = {
  bannerComment: '',
  format: false,
  additionalProperties: false,
  strictIndexSignatures: true,
};

/** The schema of an entity as the API returns it: its stored fields, without write-only ones, system fields included. */
export function entitySchema(resource: ResourceModel) {
  const entity = resource.entity!;
  const properties: Record<string, JsonSchema> = {};
  for (const field of entity.fields) {
    if (field.writeOnly) continue;
    const authored = authoredProperty(entity, field.name);
    properties[field.name] = authored ? withoutTitles(authored) : systemSchema(field.type, field.format);
  }
  const required = entity.fields
    .filter((field) => !field.writeOnly && (field.required || field.system))
    .map((field) => field.name);
  return {
    type: 'object',
    description: `${resource.singular} (${resource.key}), as the API returns it.`,
    properties,
    required,
    additionalProperties: false,
  };
}

/** json-schema-to-typescript names a type after every title; titles are labels here, so keep them as comments. */
function withoutTitles(schema: JsonSchema): JsonSchema {
  const { title, ...rest } = schema;
  const result: JsonSchema = { ...rest };
  if (typeof title === 'string' && !result.description) result.description = title;
  if (result.items && typeof result.items === 'object') result.items = withoutTitles(result.items as JsonSchema);
  return result;
}

function systemSchema(type: string, format: string | null): JsonSchema {
  return format ? { type, format } : { type };
}
