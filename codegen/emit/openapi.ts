import type { JsonSchema, ProjectModel, ResourceModel } from '../model.ts';
import { GENERATED_NOTICE } from './header.ts';

/** server/generated/openapi.json: the API contract of the resource endpoints (OpenAPI 3.1). */
export function emitOpenApi(model: ProjectModel): string {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {
    Error: {
      type: 'object',
      required: ['message'],
      properties: { message: { type: 'string' }, errors: { type: 'object', additionalProperties: { type: 'string' }, description: 'Field name → message.' } },
    },
    ListMeta: {
      type: 'object',
      required: ['total', 'page', 'page_size'],
      properties: { total: { type: 'integer' }, page: { type: 'integer' }, page_size: { type: 'integer' } },
    },
  };
  for (const resource of model.areas.flatMap((area) => area.resources)) {
    if (!resource.entity) continue;
    schemas[resource.typeName] = entitySchema(resource);
    schemas[`${resource.typeName}Create`] = resource.entity.createSchema;
    schemas[`${resource.typeName}Update`] = resource.entity.updateSchema;
    Object.assign(paths, resourcePaths(resource));
  }
  const document = {
    $comment: GENERATED_NOTICE,
    openapi: '3.1.0',
    info: { title: 'Trade-data admin API', version: '1.0.0', description: 'Resource endpoints of the administration console, generated from the module manifest.' },
    servers: [{ url: '/api/v1' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      parameters: {
        id: { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
        page: { name: '_page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
        pageSize: { name: '_page_size', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
        sort: { name: '_sort', in: 'query', schema: { type: 'string' }, description: 'A field name.' },
        order: { name: '_order', in: 'query', schema: { enum: ['asc', 'desc'] } },
        search: { name: 'q', in: 'query', schema: { type: 'string', maxLength: 200 }, description: 'Case-insensitive search across the searchable fields.' },
      },
      responses: {
        BadRequest: { description: 'Invalid input; errors names the fields.', content: json({ $ref: '#/components/schemas/Error' }) },
        Forbidden: { description: 'The caller lacks the module/action permission.', content: json({ $ref: '#/components/schemas/Error' }) },
        NotFound: { description: 'No such record.', content: json({ $ref: '#/components/schemas/Error' }) },
      },
      schemas,
    },
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

function resourcePaths(resource: ResourceModel): Record<string, unknown> {
  const ref = (suffix = '') => ({ $ref: `#/components/schemas/${resource.typeName}${suffix}` });
  const tag = [resource.label];
  const has = (action: string) => resource.actions.includes(action as never);
  const permission = (action: string) => `Requires ${resource.key}:${action}.`;
  const errors = { '400': { $ref: '#/components/responses/BadRequest' }, '403': { $ref: '#/components/responses/Forbidden' } };
  const one = json({ type: 'object', required: ['data'], properties: { data: ref(), message: { type: 'string' } } });
  const base = `/${resource.api}`;
  const filters = (resource.list?.filters ?? []).map((field) => ({ name: field, in: 'query', schema: { type: 'string' }, description: 'Exact match.' }));
  const listParameters = ['page', 'pageSize', 'sort', 'order', 'search'].map((name) => ({ $ref: `#/components/parameters/${name}` }));
  const paths: Record<string, Record<string, unknown>> = { [base]: {}, [`${base}/{id}`]: {} };
  const collection = paths[base]!;
  const item = paths[`${base}/{id}`]!;
  if (has('view')) {
    collection.get = {
      tags: tag,
      summary: `List ${resource.label.toLowerCase()}`,
      description: permission('view'),
      parameters: [...listParameters, ...filters],
      responses: {
        '200': { description: 'A page of records.', content: json({ type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: ref() }, meta: { $ref: '#/components/schemas/ListMeta' } } }) },
        ...errors,
      },
    };
    item.get = { tags: tag, summary: `Get a ${resource.singular.toLowerCase()}`, description: permission('view'), parameters: [{ $ref: '#/components/parameters/id' }], responses: { '200': { description: 'The record.', content: one }, '404': { $ref: '#/components/responses/NotFound' }, ...errors } };
  }
  if (has('add')) {
    collection.post = { tags: tag, summary: `Create a ${resource.singular.toLowerCase()}`, description: permission('add'), requestBody: { required: true, content: json(ref('Create')) }, responses: { '201': { description: 'Created.', content: one }, ...errors } };
  }
  if (has('edit')) {
    item.put = { tags: tag, summary: `Update a ${resource.singular.toLowerCase()}`, description: permission('edit'), parameters: [{ $ref: '#/components/parameters/id' }], requestBody: { required: true, content: json(ref('Update')) }, responses: { '200': { description: 'Updated.', content: one }, '404': { $ref: '#/components/responses/NotFound' }, ...errors } };
  }
  if (has('delete')) {
    item.delete = { tags: tag, summary: `Delete a ${resource.singular.toLowerCase()}`, description: permission('delete'), parameters: [{ $ref: '#/components/parameters/id' }], responses: { '200': { description: 'Deleted.' }, '404': { $ref: '#/components/responses/NotFound' }, ...errors } };
    collection.delete = { tags: tag, summary: `Delete several ${resource.label.toLowerCase()}`, description: permission('delete'), requestBody: { required: true, content: json(idsBody()) }, responses: { '200': { description: 'Deleted.' }, ...errors } };
  }
  if (has('ACTIVE_INACTIVE')) {
    paths[`${base}/{id}/status`] = {
      patch: { tags: tag, summary: 'Activate or deactivate', description: permission('ACTIVE_INACTIVE'), parameters: [{ $ref: '#/components/parameters/id' }], requestBody: { required: true, content: json(statusBody()) }, responses: { '200': { description: 'Updated.', content: one }, ...errors } },
    };
    paths[`${base}/status`] = {
      patch: { tags: tag, summary: 'Activate or deactivate several', description: permission('ACTIVE_INACTIVE'), requestBody: { required: true, content: json({ ...idsBody(), properties: { ...idsBody().properties, ...statusBody().properties }, required: ['ids', 'is_active'] }) }, responses: { '200': { description: 'Updated.' }, ...errors } },
    };
  }
  if (has('download')) {
    paths[`${base}/export`] = {
      get: {
        tags: tag,
        summary: `Export ${resource.label.toLowerCase()} as CSV`,
        description: `${permission('download')} Same filters as the list; _columns picks the columns.`,
        parameters: [...listParameters.filter((parameter) => !/page/i.test(parameter.$ref)), ...filters, { name: '_columns', in: 'query', schema: { type: 'string' }, description: 'Comma-separated field names.' }],
        responses: { '200': { description: 'CSV, streamed.', content: { 'text/csv': { schema: { type: 'string' } } } }, ...errors },
      },
    };
  }
  if (has('verify')) {
    paths[`${base}/{id}/verify`] = { post: { tags: tag, summary: `Verify a ${resource.singular.toLowerCase()}`, description: permission('verify'), parameters: [{ $ref: '#/components/parameters/id' }], responses: { '200': { description: 'Verified.', content: one }, ...errors } } };
  }
  return Object.fromEntries(Object.entries(paths).filter(([, operations]) => Object.keys(operations).length > 0));
}

function entitySchema(resource: ResourceModel): JsonSchema {
  const entity = resource.entity!;
  const properties: Record<string, unknown> = {};
  for (const field of entity.fields) {
    if (field.writeOnly) continue;
    properties[field.name] = (entity.schema.properties as Record<string, unknown>)[field.name] ?? { type: field.type, ...(field.format ? { format: field.format } : {}), readOnly: true };
  }
  return { type: 'object', properties, required: entity.fields.filter((field) => field.system).map((field) => field.name) };
}

function idsBody() {
  return { type: 'object', required: ['ids'], additionalProperties: false, properties: { ids: { type: 'array', minItems: 1, maxItems: 500, items: { type: 'integer', minimum: 1 } } } };
}

function statusBody() {
  return { type: 'object', required: ['is_active'], additionalProperties: false, properties: { is_active: { type: 'boolean' } } };
}

function json(schema: unknown) {
  return { 'application/json': { schema } };
}
