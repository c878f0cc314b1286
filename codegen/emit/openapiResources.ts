import { bulkStatusBody, exportQuerySchema, idParams, idsBody, listQuerySchema, optionsQuery, statusBody } from '../../contract/resources.ts';
import { authoredProperty, type EntityModel, type JsonSchema, type ListModel, type ResourceModel } from '../../contract/description.ts';
import { ETAG_HEADER, csvAnswer, dataAnswer, jsonBody, listAnswer, messageAnswer, ref, type OperationSpec, type Permission } from './openapiOperation.ts';

const answer = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** A resource stored in a table: the server gives it the generic endpoints. */
export type EntityResourceModel = ResourceModel & { entity: EntityModel; list: ListModel };

export function isEntityResource(resource: ResourceModel): resource is EntityResourceModel {
  return resource.entity !== null && resource.list !== null;
}

/** The generic endpoints the server registers for a resource (server/modules/resources/routes.ts), by the actions it offers. */
export function resourceOperations(resource: EntityResourceModel, relating: readonly ResourceModel[]): OperationSpec[] {
  const base = `/${resource.api}`;
  const tag = resource.label;
  const one = resource.singular.toLowerCase();
  const { page, record, saved } = answerNames(resource);
  const can = (action: string) => ({ module: resource.key, action });
  const has = (action: string) => resource.actions.includes(action as never);
  const specs: OperationSpec[] = [];
  if (has('view')) {
    specs.push(
      { method: 'get', path: base, tag, summary: `List ${resource.label.toLowerCase()}`, access: can('view'), query: listQuerySchema(resource), answers: { '200': answer(page) } },
      { method: 'get', path: `${base}/{id}`, tag, summary: `Get a ${one}`, access: can('view'), params: idParams, answers: { '200': answer(record) }, errors: [404] },
    );
  }
  specs.push({
    method: 'get',
    path: `${base}/options`,
    tag,
    summary: `${resource.singular} options for a select`,
    access: { anyOf: [{ module: resource.key, action: 'view' }, ...relating.map((other): Permission => ({ module: other.key }))] },
    notes: 'Active records only, at most 50; `q` filters by label.',
    query: optionsQuery,
    answers: { '200': answer('Options') },
  });
  if (has('add')) {
    specs.push({ method: 'post', path: base, tag, summary: `Create a ${one}`, access: can('add'), requestBody: jsonBody(ref(`${resource.typeName}Create`)), answers: { '201': answer(saved) } });
  }
  if (has('edit')) {
    specs.push({
      method: 'put',
      path: `${base}/{id}`,
      tag,
      summary: `Update a ${one}`,
      access: can('edit'),
      params: idParams,
      requestBody: jsonBody(ref(`${resource.typeName}Update`)),
      answers: { '200': answer(saved) },
      errors: [404],
      ifMatch: true,
    });
  }
  if (has('delete')) {
    specs.push(
      { method: 'delete', path: `${base}/{id}`, tag, summary: `Delete a ${one}`, access: can('delete'), params: idParams, answers: { '200': answer('Message') }, errors: [404, 409], ifMatch: true },
      {
        method: 'delete',
        path: base,
        tag,
        summary: `Delete several ${resource.label.toLowerCase()}`,
        access: can('delete'),
        notes: 'All or nothing: one missing id is a 404 and deletes nothing.',
        requestBody: jsonBody(idsBody),
        answers: { '200': answer('BulkDeleted') },
        errors: [404, 409],
      },
    );
  }
  if (has('ACTIVE_INACTIVE')) {
    specs.push(
      {
        method: 'patch',
        path: `${base}/{id}/status`,
        tag,
        summary: `Activate or deactivate a ${one}`,
        access: can('ACTIVE_INACTIVE'),
        params: idParams,
        requestBody: jsonBody(statusBody),
        answers: { '200': answer(saved) },
        errors: [404],
        ifMatch: true,
      },
      {
        method: 'patch',
        path: `${base}/status`,
        tag,
        summary: `Activate or deactivate several ${resource.label.toLowerCase()}`,
        access: can('ACTIVE_INACTIVE'),
        notes: 'All or nothing: one missing id is a 404 and changes nothing.',
        requestBody: jsonBody(bulkStatusBody),
        answers: { '200': answer('BulkUpdated') },
        errors: [404],
      },
    );
  }
  if (has('download')) {
    specs.push({
      method: 'get',
      path: `${base}/export`,
      tag,
      summary: `Export ${resource.label.toLowerCase()} as CSV`,
      access: can('download'),
      notes: 'The list\'s filters, sort and search; `_columns` picks the columns.',
      query: exportQuerySchema(resource),
      answers: { '200': csvAnswer('CSV, streamed as an attachment.') },
    });
  }
  if (has('verify')) {
    specs.push({ method: 'post', path: `${base}/{id}/verify`, tag, summary: `Verify a ${one}`, access: can('verify'), params: idParams, answers: { '200': answer(saved) }, errors: [404] });
  }
  return specs;
}

/**
 * The resources whose fields relate to each resource, by its key: options serve the resource's own viewers and the
 * forms of every resource that relates to it.
 */
export function relatingResources(resources: readonly ResourceModel[]): Map<string, ResourceModel[]> {
  const relating = new Map<string, ResourceModel[]>();
  for (const resource of resources.filter(isEntityResource)) {
    const targets = new Set(resource.entity.fields.flatMap((field) => (field.relation ? [field.relation.resource] : [])));
    for (const target of targets) relating.set(target, [...(relating.get(target) ?? []), resource]);
  }
  return relating;
}

function answerNames(resource: ResourceModel) {
  return { page: `${resource.typeName}Page`, record: `${resource.typeName}Record`, saved: `${resource.typeName}Saved` };
}

/** The answers of a resource's endpoints, each written once under `components.responses`. */
export function resourceAnswers(resource: EntityResourceModel): Record<string, unknown> {
  const { page, record, saved } = answerNames(resource);
  const one = ref(resource.typeName);
  return {
    [page]: listAnswer(`A page of ${resource.label.toLowerCase()}.`, one),
    [record]: { ...dataAnswer(`The ${resource.singular.toLowerCase()}; \`ETag\` is its version.`, one), ...ETAG_HEADER },
    [saved]: { ...dataAnswer(`The ${resource.singular.toLowerCase()} as saved, and what was done; \`ETag\` is its new version.`, one, true), ...ETAG_HEADER },
  };
}

/** Answers the generic endpoints of every resource share. */
export const SHARED_ANSWERS = {
  Options: dataAnswer('Value and label of each option.', { type: 'array', items: { type: 'object', required: ['value', 'label'], properties: { value: { type: 'integer' }, label: { type: 'string' } } } }),
  Message: messageAnswer('Done.'),
  BulkDeleted: dataAnswer('How many were deleted.', counted('deleted'), true),
  BulkUpdated: dataAnswer('How many were updated.', counted('updated'), true),
};

function counted(name: string) {
  return { type: 'object', required: [name], properties: { [name]: { type: 'integer' } } };
}

/**
 * A record as the server answers it (server/modules/resources/sql.ts): every stored field but the write-only ones, null where
 * an optional one is empty, each relation's label beside its id, and `verified_at` where the resource offers verify.
 */
export function entitySchema(resource: EntityResourceModel, byKey: ReadonlyMap<string, ResourceModel>): JsonSchema {
  const { entity } = resource;
  const properties: Record<string, unknown> = {};
  for (const field of entity.fields) {
    if (field.writeOnly) continue;
    const schema = authoredProperty(entity, field.name) ?? { type: field.type, ...(field.format ? { format: field.format } : {}), readOnly: true };
    properties[field.name] = field.required || field.system ? schema : { anyOf: [schema, { type: 'null' }] };
    if (field.relation) {
      const { resource: target, labelField } = field.relation;
      const label = byKey.get(target)?.entity?.fields.find((candidate) => candidate.name === labelField);
      properties[`${field.name}_label`] = { ...(label ? { type: [label.type, 'null'] } : {}), readOnly: true, description: `The related record's ${labelField}.` };
    }
  }
  if (resource.actions.includes('verify')) properties.verified_at = { type: ['string', 'null'], format: 'date-time', readOnly: true };
  return { type: 'object', properties, required: Object.keys(properties) };
}
