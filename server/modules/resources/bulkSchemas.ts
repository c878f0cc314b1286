/** The request and answer schemas of the bulk endpoints (bulkByFilter.ts): the list's query picks, the body says what to do. */
import type { JsonSchema } from '../../../contract/description.ts';
import { wholeObject } from '../../http/answers.ts';
import { namedSchema } from '../../http/components.ts';
import { progressAnswer } from '../../http/progressStream.ts';
import { writeSchema, exactObject } from '../../http/requestSchemas.ts';
import type { EntityResource } from '../../registry.ts';
import { listQuerySchema } from './schemas.ts';

const expectedCount = {
  type: 'integer',
  minimum: 0,
  maximum: 100_000_000,
  description: 'How many records the caller saw match and confirmed; another count now is a 409.',
};

/** The list's query string (search and filters) without its paging and sort: which records, not which page. */
export function matchQuerySchema(resource: EntityResource): JsonSchema {
  const list = listQuerySchema(resource);
  const {
    _page: _p,
    _page_size: _s,
    _sort: _o,
    _order: _d,
    ...matching
  } = list.properties as Record<string, JsonSchema>;
  return { ...list, properties: matching };
}

export const bulkStatusByFilterBody = namedSchema(
  'BulkStatusByFilter',
  exactObject({ is_active: { type: 'boolean' }, expected_count: expectedCount }),
);

export const bulkDeleteByFilterBody = namedSchema('BulkDeleteByFilter', exactObject({ expected_count: expectedCount }));

/** `value` is judged by the field's own schema in the handler, so a bad one is a 400 on that field's name. */
export function bulkSetBody(resource: EntityResource): JsonSchema {
  return exactObject({
    field: { type: 'string', enum: resource.list.bulkEdit },
    value: { description: "The value, as the field's schema takes it." },
    expected_count: expectedCount,
  });
}

const setSchemas = new Map<string, JsonSchema>();

/** An object of the one field, with its schema as a create or update judges it. */
export function bulkSetSchema(resource: EntityResource, field: string): JsonSchema {
  const key = `${resource.key}.${field}`;
  let schema = setSchemas.get(key);
  if (!schema) {
    const property = (writeSchema(resource.entity.createSchema).properties as Record<string, JsonSchema>)[field];
    schema = { type: 'object', required: [field], properties: { [field]: property ?? false } };
    setSchemas.set(key, schema);
  }
  return schema;
}

export const bulkAnswer = progressAnswer(
  'The change, as it goes.',
  namedSchema(
    'BulkResult',
    wholeObject({
      matched: { type: 'integer', description: 'Records that matched.' },
      changed: { type: 'integer', description: 'Records changed (those already as asked are left alone).' },
    }),
  ),
);
