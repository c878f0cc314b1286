import type { RJSFSchema } from '@rjsf/utils';

type Node = RJSFSchema | boolean | undefined;

/**
 * A structural check of data against a subschema (type, const, enum, required, properties, items, $ref),
 * enough for rjsf to pick oneOf/anyOf options and if/then branches without a schema compiler.
 */
export function matchesSchema(schema: Node, data: unknown, rootSchema: RJSFSchema): boolean {
  if (schema === undefined || schema === true) return true;
  if (schema === false) return false;
  if (typeof schema.$ref === 'string') return matchesSchema(resolveRef(schema.$ref, rootSchema), data, rootSchema);
  if (schema.const !== undefined && schema.const !== data) return false;
  if (schema.enum && !schema.enum.includes(data as never)) return false;
  if (schema.type && !typeMatches(schema.type, data)) return false;
  if (schema.allOf && !schema.allOf.every((part) => matchesSchema(part, data, rootSchema))) return false;
  if (schema.anyOf && !schema.anyOf.some((part) => matchesSchema(part, data, rootSchema))) return false;
  if (schema.oneOf && schema.oneOf.filter((part) => matchesSchema(part, data, rootSchema)).length !== 1) return false;
  if (isRecord(data)) {
    if (schema.required?.some((name) => data[name] === undefined)) return false;
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (data[name] !== undefined && !matchesSchema(property, data[name], rootSchema)) return false;
    }
  }
  if (Array.isArray(data) && schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items)) {
    const items = schema.items;
    if (!data.every((item) => matchesSchema(items, item, rootSchema))) return false;
  }
  return true;
}

function typeMatches(type: RJSFSchema['type'], data: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  return types.some((name) => {
    switch (name) {
      case 'null':
        return data === null;
      case 'integer':
        return Number.isInteger(data);
      case 'number':
        return typeof data === 'number' && Number.isFinite(data);
      case 'array':
        return Array.isArray(data);
      case 'object':
        return isRecord(data);
      default:
        return typeof data === name;
    }
  });
}

function resolveRef(ref: string, rootSchema: RJSFSchema): Node {
  let node: unknown = rootSchema;
  for (const segment of ref.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    if (!isRecord(node)) return undefined;
    node = node[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node as Node;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
