/**
 * What the generic endpoints answer: a record of a resource as its table gives it (sql.ts), and the answers built on
 * it. The routes declare them (routes.ts), Fastify serialises with them and the OpenAPI document prints them.
 */
import { authoredProperty, type JsonSchema } from '../../../contract/description.ts';
import { dataAnswer, listAnswer, messageAnswer, withETag, type Answer, wholeObject } from '../../http/answers.ts';
import { namedAnswer, namedSchema } from '../../http/components.ts';
import { resource as resourceByKey, type EntityResource, type RegistryField } from '../../registry.ts';

/** The keywords that say what a value is; those that only judge input (bounds, patterns, the shared rules) are left out. */
const SHAPE_KEYWORDS = [
  'title',
  'description',
  'type',
  'format',
  'enum',
  'items',
  'properties',
  'required',
  'additionalProperties',
];

/** A field's value as answered: its authored schema's shape (typed as its column is), or for a system field its type. */
function fieldShape(field: RegistryField, authored: JsonSchema | undefined): JsonSchema {
  if (!authored)
    return { title: field.title, type: field.type, ...(field.format ? { format: field.format } : {}), readOnly: true };
  return { type: field.type, ...shapeOf(authored) };
}

function shapeOf(schema: JsonSchema): JsonSchema {
  const shape: JsonSchema = {};
  for (const keyword of SHAPE_KEYWORDS) {
    const value = schema[keyword];
    if (value === undefined) continue;
    if (keyword === 'items') shape.items = shapeOf(value as JsonSchema);
    else if (keyword === 'properties')
      shape.properties = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([name, property]) => [name, shapeOf(property)]),
      );
    else shape[keyword] = value;
  }
  return shape;
}

/** Null besides the field's own type: a column a manifest field adds may be empty, even when the field is required. */
function orNull(shape: JsonSchema): JsonSchema {
  const types = [shape.type].flat().filter((type) => type !== undefined);
  return {
    ...shape,
    type: [...types, 'null'],
    ...(Array.isArray(shape.enum) ? { enum: [...(shape.enum as unknown[]), null] } : {}),
  };
}

const records = new WeakMap<EntityResource, JsonSchema>();

/**
 * A record as the server answers it: every stored field but the write-only ones (system fields never null, the
 * others null where empty), each relation's label beside its id, and `verified_at` where the resource offers verify.
 */
export function recordSchema(resource: EntityResource): JsonSchema {
  const known = records.get(resource);
  if (known) return known;
  const properties: Record<string, JsonSchema> = {};
  for (const field of resource.entity.fields) {
    if (field.writeOnly) continue;
    const shape = fieldShape(field, field.system ? undefined : authoredProperty(resource.entity, field.name));
    properties[field.name] = field.system ? shape : orNull(shape);
    if (field.relation) {
      const { resource: target, labelField } = field.relation;
      const label = resourceByKey(target)?.entity?.fields.find((candidate) => candidate.name === labelField);
      properties[`${field.name}_label`] = {
        type: [label && label.type !== 'array' && label.type !== 'object' ? label.type : 'string', 'null'],
        readOnly: true,
        description: `The related record's ${labelField}.`,
      };
    }
  }
  if (resource.actions.includes('verify'))
    properties.verified_at = { type: ['string', 'null'], format: 'date-time', readOnly: true };
  const schema = namedSchema(resource.typeName, wholeObject(properties));
  records.set(resource, schema);
  return schema;
}

export interface RecordAnswers {
  page: Answer;
  record: Answer;
  saved: Answer;
}

const answers = new WeakMap<EntityResource, RecordAnswers>();

/** A page of records, one record (with its ETag) and a record as saved (with its new ETag), each named once. */
export function recordAnswers(resource: EntityResource): RecordAnswers {
  const known = answers.get(resource);
  if (known) return known;
  const record = recordSchema(resource);
  const one = resource.singular.toLowerCase();
  const made = {
    page: namedAnswer(`${resource.typeName}Page`, listAnswer(`A page of ${resource.label.toLowerCase()}.`, record)),
    record: namedAnswer(
      `${resource.typeName}Record`,
      withETag(dataAnswer(`The ${one}; \`ETag\` is its version.`, record)),
    ),
    saved: namedAnswer(
      `${resource.typeName}Saved`,
      withETag(
        dataAnswer(`The ${one} as saved, and what was done; \`ETag\` is its new version.`, record, { message: true }),
      ),
    ),
  };
  answers.set(resource, made);
  return made;
}

function counted(name: string): JsonSchema {
  return wholeObject({ [name]: { type: 'integer' } });
}

/** Answers the generic endpoints of every resource share. */
export const SHARED_ANSWERS = {
  options: namedAnswer(
    'Options',
    dataAnswer('Value and label of each option.', {
      type: 'array',
      items: wholeObject({ value: { type: 'integer' }, label: { type: 'string' } }),
    }),
  ),
  deleted: namedAnswer('Deleted', messageAnswer('Deleted.')),
  bulkDeleted: namedAnswer('BulkDeleted', dataAnswer('How many were deleted.', counted('deleted'), { message: true })),
  bulkUpdated: namedAnswer('BulkUpdated', dataAnswer('How many were updated.', counted('updated'), { message: true })),
};
