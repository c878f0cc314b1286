import type Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { RECORD_VERSION } from '../contract/readableFields.ts';
import { createAjv } from '../validation/createAjv.ts';
import { manifestError, pointerOf, type ManifestError } from './errors.ts';
import {
  businessRuleErrors,
  enumLabelErrors,
  normaliseErrors,
  siblingReferenceErrors,
  unitErrors,
} from './schemaChecks.ts';
import type { Resource, UniqueKey } from './generated/manifest.ts';
import type { LoadedArea } from './load.ts';
import { validateShape } from './manifestShape.ts';
import { tableName, uniqueIndexName } from './sqlNames.ts';
import { ROUTE_SUFFIX, SCREEN_NAMES, SIDEBAR_ICONS, SYSTEM_FIELDS } from './vocabulary.ts';

/** Every problem of the manifest at once: shape against manifest.schema.json, then cross-file rules. */
export function validateManifest(areas: readonly LoadedArea[]): ManifestError[] {
  const errors: ManifestError[] = [];
  const wellShaped: LoadedArea[] = [];
  for (const area of areas) {
    if (validateShape(area.document)) wellShaped.push(area);
    else
      errors.push(
        ...(validateShape.errors ?? [])
          .filter((error) => !isOtherUniqueKeyForm(area.document, error))
          .map((error) => shapeError(area.file, error)),
      );
  }
  // Cross-file rules only make sense on well-shaped files; a misshapen one has been reported above.
  // The schemas are compiled here only to learn whether ajv accepts them; its code-size pass would be wasted work
  // (measured: 90 ms of the real manifest's ~1 s generate).
  errors.push(...crossChecks(wellShaped, createAjv({ code: { optimize: false } })));
  return errors;
}

const UNIQUE_KEYS = /^\/resources\/\d+\/entity\/unique$/;
const UNIQUE_KEY = /^\/resources\/\d+\/entity\/unique\/\d+$/;

/**
 * A unique key is a field name or a list of them (an anyOf), and ajv reports both forms' failures and the anyOf's:
 * keep only those of the form the author wrote (a list when it is an array, else a name).
 */
function isOtherUniqueKeyForm(document: unknown, error: ErrorObject): boolean {
  if (!UNIQUE_KEY.test(error.instancePath)) return false;
  if (error.keyword === 'anyOf') return true;
  const value = error.instancePath
    .split('/')
    .slice(1)
    .reduce<unknown>((parent, segment) => (parent as Record<string, unknown>)[segment], document);
  return error.keyword === 'type' && error.params.type === (Array.isArray(value) ? 'string' : 'array');
}

function shapeError(file: string, error: ErrorObject): ManifestError {
  const pointer = error.instancePath;
  if (UNIQUE_KEYS.test(pointer) && error.keyword === 'uniqueItems') {
    return manifestError(
      'DuplicateUniqueKey',
      file,
      `${pointer}/${String(error.params.i)}`,
      `the same unique key as item ${String(error.params.j)}`,
    );
  }
  if (UNIQUE_KEY.test(pointer)) {
    if (error.keyword === 'minItems')
      return manifestError(
        'InvalidUniqueKey',
        file,
        pointer,
        'a composite unique key names 2 or more fields; write a single field as its name',
      );
    if (error.keyword === 'uniqueItems') {
      return manifestError(
        'InvalidUniqueKey',
        file,
        `${pointer}/${String(error.params.i)}`,
        `a composite unique key names each field once; this repeats item ${String(error.params.j)}`,
      );
    }
    if (error.keyword === 'type')
      return manifestError(
        'SchemaViolation',
        file,
        pointer,
        'a unique key is a field name or a list of 2 or more field names',
      );
  }
  if (error.keyword === 'additionalProperties') {
    const property = String(error.params.additionalProperty);
    return manifestError('UnknownProperty', file, `${pointer}${pointerOf(property)}`, `unknown property "${property}"`);
  }
  if (error.keyword === 'enum' && /\/actions\/\d+$/.test(pointer)) {
    return manifestError(
      'UnknownAction',
      file,
      pointer,
      `unknown action; expected one of ${(error.params.allowedValues as string[]).join(', ')}`,
    );
  }
  if (error.keyword === 'enum' && pointer === '/sidebar/icon') {
    return manifestError('UnknownIcon', file, pointer, `unknown icon; expected one of ${SIDEBAR_ICONS.join(', ')}`);
  }
  if (error.keyword === 'enum' && /\/screens\//.test(pointer)) {
    return manifestError(
      'UnknownScreen',
      file,
      pointer,
      `unknown custom screen; expected one of ${SCREEN_NAMES.join(', ')}`,
    );
  }
  if (error.keyword === 'propertyNames' && /\/screens$/.test(pointer)) {
    return manifestError(
      'UnknownAction',
      file,
      `${pointer}${pointerOf(String(error.params.propertyName))}`,
      'screens are keyed by an action of the vocabulary',
    );
  }
  return manifestError('SchemaViolation', file, pointer, error.message ?? 'invalid');
}

function crossChecks(areas: readonly LoadedArea[], ajv: Ajv2020): ManifestError[] {
  const errors: ManifestError[] = [];
  const moduleKeys = new Map<string, string>();
  const areaPaths = new Map<string, string>();
  const routePaths = new Map<string, string>();
  const tables = new Map<string, string>();
  const apiPaths = new Map<string, string>();
  const resourcesByKey = new Map<string, Resource>();
  const sidebarGroups = new Map<string, { group: string; place: string }>();
  const claim = (seen: Map<string, string>, value: string, place: string, onClash: (first: string) => void) => {
    const first = seen.get(value);
    if (first) onClash(first);
    else seen.set(value, place);
  };

  for (const { file, document: area } of areas) {
    claim(moduleKeys, area.key, `${file}:/key`, (first) =>
      errors.push(
        manifestError('DuplicateAreaKey', file, '/key', `module key "${area.key}" is already used at ${first}`),
      ),
    );
    claim(areaPaths, area.path, `${file}:/path`, (first) =>
      errors.push(
        manifestError('DuplicateAreaPath', file, '/path', `area path "${area.path}" is already used at ${first}`),
      ),
    );
    if (area.sidebar && area.sidebar.link !== `/${area.path}` && !area.sidebar.link.startsWith(`/${area.path}/`)) {
      errors.push(
        manifestError(
          'SidebarLinkOutsideArea',
          file,
          '/sidebar/link',
          `sidebar link "${area.sidebar.link}" is outside the area path "/${area.path}"`,
        ),
      );
    }
    const group = area.sidebar?.group;
    if (group !== undefined) {
      // A heading written two ways would show as two headings: one spelling per heading.
      const key = group.trim().replace(/\s+/g, ' ').toLowerCase();
      const first = sidebarGroups.get(key);
      if (!first) sidebarGroups.set(key, { group, place: `${file}:/sidebar/group` });
      else if (first.group !== group) {
        errors.push(
          manifestError(
            'InconsistentSidebarGroup',
            file,
            '/sidebar/group',
            `sidebar group "${group}" differs only in case or spacing from "${first.group}" at ${first.place}; write a heading one way`,
          ),
        );
      }
    }
    area.resources.forEach((resource, index) => {
      const at = (...rest: (string | number)[]) => pointerOf('resources', index, ...rest);
      resourcesByKey.set(resource.key, resource);
      claim(moduleKeys, resource.key, `${file}:${at('key')}`, (first) =>
        errors.push(
          manifestError(
            'DuplicateModuleKey',
            file,
            at('key'),
            `module key "${resource.key}" is already used at ${first}`,
          ),
        ),
      );
      for (const action of resource.actions) {
        const suffix = ROUTE_SUFFIX[action];
        if (suffix === undefined) continue;
        const path = `/${area.path}/${resource.path}${suffix}`;
        claim(routePaths, path, `${file}:${at('path')}`, (first) =>
          errors.push(
            manifestError('DuplicateRoutePath', file, at('path'), `route "${path}" is already produced at ${first}`),
          ),
        );
      }
      const api = resource.api ?? resource.path;
      claim(apiPaths, api, `${file}:${at('api')}`, (first) =>
        errors.push(
          manifestError(
            'DuplicateApiPath',
            file,
            at(resource.api ? 'api' : 'path'),
            `API path "${api}" is already used at ${first}; set a distinct "api"`,
          ),
        ),
      );
      if (resource.entity) {
        const table = resource.entity.table ?? tableName(resource.key);
        claim(tables, table, `${file}:${at('entity')}`, (first) =>
          errors.push(
            manifestError(
              'DuplicateTable',
              file,
              at('entity', 'table'),
              `table "${table}" is already used at ${first}`,
            ),
          ),
        );
      }
    });
  }

  for (const { file, document: area } of areas) {
    area.resources.forEach((resource, index) =>
      errors.push(...resourceChecks(file, index, resource, resourcesByKey, ajv)),
    );
  }
  return errors;
}

function resourceChecks(
  file: string,
  index: number,
  resource: Resource,
  resourcesByKey: Map<string, Resource>,
  ajv: Ajv2020,
): ManifestError[] {
  const errors: ManifestError[] = [];
  const at = (...rest: (string | number)[]) => pointerOf('resources', index, ...rest);
  const entity = resource.entity;

  for (const [action, screen] of Object.entries(resource.screens ?? {})) {
    if (!resource.actions.includes(action as Resource['actions'][number])) {
      errors.push(
        manifestError(
          'UnknownAction',
          file,
          at('screens', action),
          `screen "${screen}" is given for action "${action}", which the resource does not offer`,
        ),
      );
    } else if (ROUTE_SUFFIX[action as keyof typeof ROUTE_SUFFIX] === undefined) {
      errors.push(
        manifestError(
          'UnknownAction',
          file,
          at('screens', action),
          `action "${action}" opens no screen, so it cannot have one`,
        ),
      );
    }
  }

  for (const [action, form] of Object.entries(resource.forms ?? {})) {
    if (!resource.actions.includes(action as Resource['actions'][number])) {
      errors.push(
        manifestError(
          'UnknownAction',
          file,
          at('forms', action),
          `a form is given for action "${action}", which the resource does not offer`,
        ),
      );
    }
    try {
      ajv.compile(form.schema);
    } catch (cause) {
      errors.push(
        manifestError(
          'InvalidEntitySchema',
          file,
          at('forms', action, 'schema'),
          `ajv rejects the form schema: ${(cause as Error).message}`,
        ),
      );
    }
    errors.push(...siblingReferenceErrors(file, form.schema, (...rest) => at('forms', action, 'schema', ...rest)));
    errors.push(...enumLabelErrors(file, form.schema, (...rest) => at('forms', action, 'schema', ...rest)));
    errors.push(...unitErrors(file, form.schema, (...rest) => at('forms', action, 'schema', ...rest)));
    errors.push(...normaliseErrors(file, form.schema, (...rest) => at('forms', action, 'schema', ...rest)));
  }

  if (!entity) {
    // Without an entity there is no generic screen: view needs a custom one; other actions are permissions only.
    if (resource.actions.includes('view') && !resource.screens?.view) {
      errors.push(
        manifestError(
          'MissingScreen',
          file,
          at('actions'),
          'action "view" needs a custom screen: the resource has no entity for the generic list',
        ),
      );
    }
    if (resource.list) errors.push(manifestError('UnknownField', file, at('list'), 'a list needs an entity to list'));
    if (resource.describe)
      errors.push(
        manifestError(
          'UnknownField',
          file,
          at('describe'),
          'describe names fields of a found record, so it needs an entity',
        ),
      );
    for (const field of Object.keys(resource.uiSchema ?? {}).filter((key) => !key.startsWith('ui:'))) {
      errors.push(
        manifestError(
          'UnknownField',
          file,
          at('uiSchema', field),
          `uiSchema names "${field}", but the resource has no entity`,
        ),
      );
    }
    return errors;
  }

  try {
    ajv.compile(entity.schema);
  } catch (cause) {
    errors.push(
      manifestError(
        'InvalidEntitySchema',
        file,
        at('entity', 'schema'),
        `ajv rejects the entity schema: ${(cause as Error).message}`,
      ),
    );
  }

  errors.push(...siblingReferenceErrors(file, entity.schema, (...rest) => at('entity', 'schema', ...rest)));
  errors.push(...enumLabelErrors(file, entity.schema, (...rest) => at('entity', 'schema', ...rest)));
  errors.push(...unitErrors(file, entity.schema, (...rest) => at('entity', 'schema', ...rest)));
  errors.push(...normaliseErrors(file, entity.schema, (...rest) => at('entity', 'schema', ...rest)));
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
