import type { JsonSchema } from '../../contract/description.ts';

/**
 * The interface json-schema-to-typescript (`format: false`, `additionalProperties: false`) writes for an object schema
 * whose fields are plain: a string, number, integer or boolean, an enum of such literals, or an array of one of those.
 * Written here because loading that package and running its pipeline per entity was a third of `generate`'s time.
 * Null for any schema with anything else the package reads (titles, ids, references, unions, tuples, nested objects,
 * defaults of another type...), which then goes through the package itself. plainInterface.test.ts holds the two equal.
 */
export function plainInterface(
  name: string,
  schema: { description: string; properties: Record<string, JsonSchema>; required: readonly string[] },
): string | null {
  if (!SAFE_NAME.test(name) || /\d[a-z]/.test(name)) return null; // the package would rename it
  const lines: string[] = [];
  for (const [key, property] of Object.entries(schema.properties)) {
    if (!IDENTIFIER.test(key)) return null;
    const field = plainField(property, true);
    if (!field) return null;
    if (field.comment) lines.push(jsDoc(field.comment));
    lines.push(`${key}${schema.required.includes(key) ? '' : '?'}: ${field.type}`);
  }
  const comment = schema.description ? `${jsDoc(escapeCommentEnd(schema.description))}\n` : '';
  return `${comment}export interface ${name} {\n${lines.join('\n')}\n}\n`;
}

const SAFE_NAME = /^[A-Z][A-Za-z0-9]*$/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Every keyword json-schema-to-typescript or its $ref resolver reads; any other keyword changes nothing it writes. */
const READ_BY_GENERATOR = new Set([
  '$defs',
  '$id',
  '$ref',
  'additionalItems',
  'additionalProperties',
  'allOf',
  'anyOf',
  'const',
  'default',
  'definitions',
  'dependencies',
  'deprecated',
  'description',
  'enum',
  'extends',
  'id',
  'items',
  'maxItems',
  'minItems',
  'name',
  'not',
  'oneOf',
  'patternProperties',
  'properties',
  'required',
  'title',
  'tsEnumNames',
  'tsType',
  'type',
]);
/** Those of them a plain field may have. */
const PLAIN_KEYWORDS = new Set(['default', 'description', 'enum', 'items', 'maxItems', 'minItems', 'type']);
const SCALAR_TYPES: Record<string, { ts: string; js: string }> = {
  string: { ts: 'string', js: 'string' },
  integer: { ts: 'number', js: 'number' },
  number: { ts: 'number', js: 'number' },
  boolean: { ts: 'boolean', js: 'boolean' },
};
/** Above this many items a maximum makes no tuple type, only a comment (the package's `maxItems` option). */
const MAX_TUPLE_ITEMS = 20;

interface PlainField {
  type: string;
  comment: string;
}

function plainField(schema: unknown, arrayAllowed: boolean): PlainField | null {
  if (!isPlainObject(schema)) return null;
  for (const [keyword, value] of Object.entries(schema)) {
    if (PLAIN_KEYWORDS.has(keyword)) continue;
    if (READ_BY_GENERATOR.has(keyword) || !isInert(value)) return null;
  }
  const { type, description } = schema;
  if (description !== undefined && typeof description !== 'string') return null;
  if (!isInert(schema.default)) return null;
  // A default of a scalar type other than the field's would make the package read the field as both.
  const defaultType = typeof schema.default;
  const comment = description ? escapeCommentEnd(description) : '';
  const scalar = typeof type === 'string' ? SCALAR_TYPES[type] : undefined;
  if (scalar) {
    if ('items' in schema || 'minItems' in schema || 'maxItems' in schema) return null;
    if (schema.enum !== undefined) return literalUnion(schema.enum, comment);
    if (['string', 'number', 'boolean'].includes(defaultType) && defaultType !== scalar.js) return null;
    return { type: scalar.ts, comment };
  }
  if (type !== 'array' || !arrayAllowed || schema.enum !== undefined) return null;
  if (['string', 'number', 'boolean'].includes(defaultType)) return null;
  const item = plainField(schema.items, false);
  if (!item) return null;
  // The package writes minItems and maxItems as comments, and makes a tuple type of any bound it can spell out.
  const { minItems, maxItems } = schema;
  if (minItems !== undefined && minItems !== 0) return null;
  if (maxItems !== undefined && !(typeof maxItems === 'number' && maxItems > MAX_TUPLE_ITEMS)) return null;
  const bounds = [
    minItems === undefined ? '' : `@minItems ${minItems}`,
    maxItems === undefined ? '' : `@maxItems ${maxItems}`,
  ].filter(Boolean);
  const itemType = item.type.endsWith('"') ? `(${item.type})[]` : `${item.type}[]`;
  if (bounds.length === 0) return { type: itemType, comment };
  return { type: itemType, comment: comment ? `${comment}\n\n${bounds.join('\n')}` : bounds.join('\n') };
}

function literalUnion(values: unknown, comment: string): PlainField | null {
  if (!Array.isArray(values) || values.length === 0) return null;
  if (!values.every((value) => typeof value === 'string' || typeof value === 'boolean' || Number.isFinite(value)))
    return null;
  const literals = [...new Set(values.map((value) => JSON.stringify(value)))];
  return { type: literals.length === 1 ? literals[0]! : `(${literals.join(' | ')})`, comment };
}

/** A value whose nested objects hold no keyword the package reads (it walks into them, and resolves any `$ref`). */
function isInert(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(isInert);
  if (value === null || typeof value !== 'object') return true;
  if (!isPlainObject(value)) return false;
  return Object.entries(value).every(([key, nested]) => !READ_BY_GENERATOR.has(key) && isInert(nested));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function escapeCommentEnd(text: string): string {
  return text.replace(/\*\//g, '* /');
}

function jsDoc(comment: string): string {
  return ['/**', ...comment.split('\n').map((line) => ` * ${line}`), ' */'].join('\n');
}
