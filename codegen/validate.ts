import type Ajv2020 from 'ajv/dist/2020.js';
import { RECORD_VERSION } from '../contract/readableFields.ts';
import { manifestError, pointerOf, type ManifestError } from './errors.ts';
import {
  businessRuleErrors,
  enumLabelErrors,
  moneyErrors,
  normaliseErrors,
  siblingReferenceErrors,
  unitErrors,
  widgetFormatErrors,
} from './schemaChecks.ts';
import type { Resource, UniqueKey } from './generated/manifest.ts';
import { tableName, uniqueIndexName } from './sqlNames.ts';
import { SYSTEM_FIELDS } from './vocabulary.ts';

/** A resource of a manifest file being checked: the file, its place in `resources`, the others by key, the compiler. */
export interface ResourceUnderCheck {
  file: string;
  index: number;
  resource: Resource;
  resourcesByKey: Map<string, Resource>;
  ajv: Ajv2020;
}

/**
 * The rules of a resource's entity: its schema compiles and its keywords are used as they mean, and every field its
 * unique keys, relations, list, describe and uiSchema name exists and is of a kind that can serve there.
 */
export function entityChecks({ file, index, resource, resourcesByKey, ajv }: ResourceUnderCheck): ManifestError[] {
  const entity = resource.entity;
  if (!entity) return [];
  const errors: ManifestError[] = [];
  const at = (...rest: (string | number)[]) => pointerOf('resources', index, ...rest);
  errors.push(...schemaErrors(file, ajv, entity.schema, 'entity', (...rest) => at('entity', 'schema', ...rest)));
  errors.push(...businessRuleErrors(file, entity.schema, (...rest) => at('entity', 'schema', ...rest)));

  const authored = new Set(Object.keys((entity.schema.properties ?? {}) as Record<string, unknown>));
  const known = new Set([...authored, ...SYSTEM_FIELDS]);
  for (const system of SYSTEM_FIELDS) {
    if (authored.has(system)) {
      errors.push(
        manifestError(
          'SchemaViolation',
          file,
          at('entity', 'schema', 'properties', system),
          `"${system}" is added by the generator; do not declare it`,
        ),
      );
    }
  }
  const requireField = (field: string, pointer: string, what: string, fields: Set<string> = known) => {
    if (!fields.has(field))
      errors.push(manifestError('UnknownField', file, pointer, `${what} names "${field}", which the entity lacks`));
  };
  errors.push(
    ...uniqueKeyErrors(
      file,
      entity.table ?? tableName(resource.key),
      entity.unique ?? [],
      (...rest) => at('entity', 'unique', ...rest),
      authored,
    ),
  );
  (entity.writeOnly ?? []).forEach((field, i) =>
    requireField(field, at('entity', 'writeOnly', i), 'writeOnly', authored),
  );
  for (const [field, relation] of Object.entries(entity.relations ?? {})) {
    requireField(field, at('entity', 'relations', field), 'a relation', authored);
    const target = resourcesByKey.get(relation.resource);
    if (!target?.entity) {
      errors.push(
        manifestError(
          'UnknownResource',
          file,
          at('entity', 'relations', field, 'resource'),
          `relation names resource "${relation.resource}", which is not a resource with an entity`,
        ),
      );
    } else if (!(relation.labelField in ((target.entity.schema.properties ?? {}) as object))) {
      errors.push(
        manifestError(
          'UnknownField',
          file,
          at('entity', 'relations', field, 'labelField'),
          `labelField "${relation.labelField}" is not a field of ${relation.resource}`,
        ),
      );
    }
  }
  const list = resource.list;
  if (list) {
    const listable = new Set([...known].filter((field) => field !== RECORD_VERSION)); // the record version is for If-Match, not people
    list.columns.forEach((field, i) => requireField(field, at('list', 'columns', i), 'a list column', listable));
    (list.priority ?? []).forEach((field, i) => {
      if (!list.columns.includes(field))
        errors.push(
          manifestError(
            'UnknownField',
            file,
            at('list', 'priority', i),
            `the column priority names "${field}", which is not one of the list's columns`,
          ),
        );
    });
    const textFields = new Set(
      Object.entries((entity.schema.properties ?? {}) as Record<string, { type?: unknown; format?: unknown }>)
        .filter(
          ([, property]) => property.type === 'string' && property.format !== 'date' && property.format !== 'date-time',
        )
        .map(([name]) => name),
    );
    (list.search ?? []).forEach((field, i) =>
      requireField(field, at('list', 'search', i), 'a search field (text fields only)', textFields),
    );
    (list.filters ?? []).forEach((field, i) => requireField(field, at('list', 'filters', i), 'a filter', listable));
    if (list.sort) requireField(list.sort.field, at('list', 'sort', 'field'), 'the default sort', listable);
    const settable = bulkSettableFields(entity);
    (list.bulkEdit ?? []).forEach((field, i) =>
      requireField(field, at('list', 'bulkEdit', i), 'bulk edit (writable scalar fields only)', settable),
    );
    if (list.bulkEdit?.length && !resource.actions.includes('edit')) {
      errors.push(
        manifestError(
          'UnknownAction',
          file,
          at('list', 'bulkEdit'),
          'bulk edit sets fields on every matching record, so the resource must offer "edit"',
        ),
      );
    }
  }
  const describable = new Set(
    Object.entries((entity.schema.properties ?? {}) as Record<string, { type?: unknown }>)
      .filter(
        ([name, property]) =>
          ['string', 'integer', 'number'].includes(String(property.type)) &&
          !(entity.writeOnly ?? []).includes(name) &&
          !entity.relations?.[name],
      )
      .map(([name]) => name),
  );
  (resource.describe ?? []).forEach((part, i) => {
    const fields = typeof part === 'string' ? [part] : part;
    fields.forEach((field, k) =>
      requireField(
        field,
        typeof part === 'string' ? at('describe', i) : at('describe', i, k),
        'describe (stored text or number fields, not relations)',
        describable,
      ),
    );
  });
  if (resource.actions.includes('import') && !(entity.unique ?? []).length) {
    errors.push(
      manifestError(
        'ImportWithoutKey',
        file,
        at('actions'),
        'action "import" matches file rows to records on a unique key: declare one in entity.unique',
      ),
    );
  }
  for (const field of Object.keys(resource.uiSchema ?? {}).filter((key) => !key.startsWith('ui:'))) {
    requireField(field, at('uiSchema', field), 'uiSchema', authored);
  }
  const order = (resource.uiSchema?.['ui:order'] ?? []) as unknown[];
  order.forEach((field, i) => {
    if (field !== '*') requireField(String(field), at('uiSchema', 'ui:order', i), 'ui:order', authored);
  });
  return errors;
}

/**
 * Each key's fields exist. The shape check has refused a composite of fewer than 2 distinct fields and a key written
 * twice; left are two keys of the same fields in another order, and two keys whose index names coincide
 * (`a_b` and `[a, b]`), which would be one index.
 */
function uniqueKeyErrors(
  file: string,
  table: string,
  keys: readonly UniqueKey[],
  pointer: (...rest: (string | number)[]) => string,
  authored: Set<string>,
): ManifestError[] {
  const errors: ManifestError[] = [];
  const byFields = new Map<string, number>();
  const byIndex = new Map<string, number>();
  keys.forEach((key, i) => {
    const fields = typeof key === 'string' ? [key] : key;
    fields.forEach((field, k) => {
      if (!authored.has(field)) {
        errors.push(
          manifestError(
            'UnknownField',
            file,
            typeof key === 'string' ? pointer(i) : pointer(i, k),
            `unique names "${field}", which the entity lacks`,
          ),
        );
      }
    });
    const fieldSet = [...fields].sort().join(',');
    const index = uniqueIndexName(table, fields);
    const sameFields = byFields.get(fieldSet);
    const sameIndex = byIndex.get(index);
    if (sameFields !== undefined) {
      errors.push(
        manifestError(
          'DuplicateUniqueKey',
          file,
          pointer(i),
          `the same fields as unique key ${sameFields}, in another order`,
        ),
      );
    } else if (sameIndex !== undefined) {
      errors.push(
        manifestError(
          'DuplicateUniqueKey',
          file,
          pointer(i),
          `its index name "${index}" is that of unique key ${sameIndex}; rename a field`,
        ),
      );
    }
    if (sameFields === undefined) byFields.set(fieldSet, i);
    if (sameIndex === undefined) byIndex.set(index, i);
  });
  return errors;
}

/** Fields one value can be given across many records: authored, stored (not writeOnly), neither read-only nor a list or an object. */
function bulkSettableFields(entity: NonNullable<Resource['entity']>): Set<string> {
  const writeOnly = new Set(entity.writeOnly ?? []);
  return new Set(
    Object.entries((entity.schema.properties ?? {}) as Record<string, { type?: unknown; readOnly?: unknown }>)
      .filter(
        ([name, property]) =>
          !writeOnly.has(name) && property.readOnly !== true && property.type !== 'array' && property.type !== 'object',
      )
      .map(([name]) => name),
  );
}

/**
 * The rules every schema of a resource keeps, its entity's and each form's: ajv compiles it, and its keywords are used
 * as they mean (sibling references, enum labels, units, money, normalising).
 */
export function schemaErrors(
  file: string,
  ajv: Ajv2020,
  schema: object,
  kind: 'entity' | 'form',
  pointer: (...rest: (string | number)[]) => string,
): ManifestError[] {
  const errors: ManifestError[] = [];
  try {
    ajv.compile(schema);
  } catch (cause) {
    errors.push(
      manifestError(
        'InvalidEntitySchema',
        file,
        pointer(),
        `ajv rejects the ${kind} schema: ${(cause as Error).message}`,
      ),
    );
  }
  for (const check of [
    siblingReferenceErrors,
    enumLabelErrors,
    unitErrors,
    moneyErrors,
    widgetFormatErrors,
    normaliseErrors,
  ])
    errors.push(...check(file, schema, pointer));
  return errors;
}
