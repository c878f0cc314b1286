import type { RouteAudit } from '../audit/routeAudit.ts';
import type { FastifyInstance } from 'fastify';
import { permission } from '../auth/access.ts';
import { csvAnswer, errorAnswers } from '../../http/answers.ts';
import { IF_MATCH_HEADER } from '../../http/recordVersion.ts';
import { namedSchema } from '../../http/components.ts';
import { idParams, updateBodySchema, writeSchema } from '../../http/requestSchemas.ts';
import { resourceRouteDocs } from '../../http/routeDocs.ts';
import { ENTITY_RESOURCES } from '../../registry.ts';
import { SHARED_ANSWERS, recordAnswers } from './answers.ts';
import { registerBulkRoutes } from './bulkRoutes.ts';
import { deleteRecord, deleteRecords, setRecordStatus, setRecordsStatus } from './deleteAndStatus.ts';
import { ResourceContext } from './resourceContext.ts';
import { exportRecords } from './export.ts';
import { registerHistoryAndTrash } from './historyAndTrashRoutes.ts';
import { listOptions, optionsAccess } from './options.ts';
import { listRecords, showRecord } from './read.ts';
import { ResponseCache } from './responseCache.ts';
import { bulkStatusBody, exportQuerySchema, idsBody, listQuerySchema, optionsQuery, statusBody } from './schemas.ts';
import { verifyRecord } from './verify.ts';
import { acceptAnsweredRecord, createRecord, patchRecord, updateRecord } from './write.ts';
import { MERGE_PATCH } from '../../http/jsonBody.ts';

/** A merge patch's body: any object; the record it makes is what the update schema judges. */
const MERGE_PATCH_BODY = { type: 'object', description: 'The fields to change; null empties one.' } as const;

/** The generic endpoints of every manifest resource with an entity (docs/api.md, "Resource endpoints"). */
export async function resourceRoutes(app: FastifyInstance): Promise<void> {
  const responses = new ResponseCache();
  for (const resource of ENTITY_RESOURCES) registerResource(app, new ResourceContext(app, resource, responses));
}

/** Each endpoint the resource's actions offer, with its access rule, its request and answer schemas and its handler. */
function registerResource(app: FastifyInstance, resourceContext: ResourceContext): void {
  const { resource } = resourceContext;
  const { behaviour } = resourceContext.records;
  const base = `/${resource.api}`;
  const offers = (action: string) => resource.actions.includes(action);
  // The access rule of a route and, for a write, what it records in the audit log (server/modules/audit/routeAudit.ts).
  const can = (action: string, audit?: RouteAudit) => ({
    access: permission(resource.key, action),
    ...(audit ? { audit } : {}),
  });
  const { page, record, saved } = recordAnswers(resource);
  const { options, deleted, bulkDeleted, bulkUpdated } = SHARED_ANSWERS;
  // Operation ids: `listVouchers`, `getVoucher`, `bulkDeleteVouchers`; summaries in the same words.
  const plural = resource.typeName;
  const { singular, about } = resourceRouteDocs(resource);
  const one = resource.singular.toLowerCase();
  const several = resource.label.toLowerCase();
  const allOrNothing = (what: string) => `All or nothing: one missing id is a 404 and ${what} nothing.`;

  if (offers('view')) {
    app.get(base, {
      config: can('view'),
      schema: {
        ...about(`list${plural}`, `List ${several}`),
        querystring: listQuerySchema(resource),
        response: { 200: page, ...errorAnswers(400, 401, 403) },
      },
      handler: listRecords(resourceContext),
    });
    app.get(`${base}/:id`, {
      config: can('view'),
      schema: {
        ...about(`get${singular}`, `Get a ${one}`),
        params: idParams,
        response: { 200: record, ...errorAnswers(400, 401, 403, 404) },
      },
      handler: showRecord(resourceContext),
    });
  }
  app.get(`${base}/options`, {
    config: { access: optionsAccess(resource) },
    schema: {
      ...about(
        `list${singular}Options`,
        `${resource.singular} options for a select`,
        'Active records only, at most 50; `q` filters by label.',
      ),
      querystring: optionsQuery,
      response: { 200: options, ...errorAnswers(400, 401, 403) },
    },
    handler: listOptions(resourceContext),
  });
  if (offers('add') && !behaviour.replaces?.includes('create')) {
    app.post(base, {
      config: can('add', { action: 'create' }),
      schema: {
        ...about(`create${singular}`, `Create a ${one}`),
        body: namedSchema(`${plural}Create`, writeSchema(resource.entity.createSchema)),
        response: { 201: saved, ...errorAnswers(400, 401, 403) },
      },
      handler: createRecord(resourceContext),
    });
  }
  if (offers('edit')) {
    app.put(`${base}/:id`, {
      config: can('edit', { action: 'update' }),
      schema: {
        ...about(`update${singular}`, `Update a ${one}`),
        params: idParams,
        headers: IF_MATCH_HEADER,
        body: namedSchema(`${plural}Update`, updateBodySchema(resource.entity.updateSchema)),
        response: { 200: saved, ...errorAnswers(400, 401, 403, 404, 412, 428) },
      },
      preValidation: acceptAnsweredRecord(resourceContext),
      handler: updateRecord(resourceContext),
    });
    app.patch(`${base}/:id`, {
      config: can('edit', { action: 'update' }),
      schema: {
        ...about(
          `patch${singular}`,
          `Change some fields of a ${one}`,
          `A JSON Merge Patch (RFC 7396): the fields to change, null to empty one; the record it makes is judged as a PUT body (${plural}Update).`,
        ),
        params: idParams,
        headers: IF_MATCH_HEADER,
        body: {
          content: {
            [MERGE_PATCH]: { schema: MERGE_PATCH_BODY },
            'application/json': { schema: MERGE_PATCH_BODY },
          },
        },
        response: { 200: saved, ...errorAnswers(400, 401, 403, 404, 412, 428) },
      },
      handler: patchRecord(resourceContext),
    });
  }
  if (offers('delete')) {
    app.delete(`${base}/:id`, {
      config: can('delete', { action: 'delete' }),
      schema: {
        ...about(`delete${singular}`, `Delete a ${one}`),
        params: idParams,
        headers: IF_MATCH_HEADER,
        response: { 200: deleted, ...errorAnswers(400, 401, 403, 404, 409, 412, 428) },
      },
      handler: deleteRecord(resourceContext),
    });
    app.delete(base, {
      config: can('delete', { action: ['bulk_delete', 'delete'] }),
      schema: {
        ...about(`bulkDelete${plural}`, `Delete several ${several}`, allOrNothing('deletes')),
        body: idsBody,
        response: { 200: bulkDeleted, ...errorAnswers(400, 401, 403, 404, 409) },
      },
      handler: deleteRecords(resourceContext),
    });
  }
  if (offers('ACTIVE_INACTIVE')) {
    app.patch(`${base}/:id/status`, {
      config: can('ACTIVE_INACTIVE', { action: 'status' }),
      schema: {
        ...about(`set${singular}Status`, `Activate or deactivate a ${one}`),
        params: idParams,
        headers: IF_MATCH_HEADER,
        body: statusBody,
        response: { 200: saved, ...errorAnswers(400, 401, 403, 404, 412, 428) },
      },
      handler: setRecordStatus(resourceContext),
    });
    app.patch(`${base}/status`, {
      config: can('ACTIVE_INACTIVE', { action: ['bulk_status', 'status'] }),
      schema: {
        ...about(`bulkSet${plural}Status`, `Activate or deactivate several ${several}`, allOrNothing('changes')),
        body: bulkStatusBody,
        response: { 200: bulkUpdated, ...errorAnswers(400, 401, 403, 404) },
      },
      handler: setRecordsStatus(resourceContext),
    });
  }
  registerBulkRoutes(app, resourceContext, about);
  if (offers('download')) {
    app.get(`${base}/export`, {
      config: can('download'),
      schema: {
        ...about(
          `export${plural}`,
          `Export ${several} as CSV`,
          "The list's filters, sort and search; `_columns` picks the columns.",
        ),
        querystring: exportQuerySchema(resource),
        response: { 200: csvAnswer('CSV, streamed as an attachment.'), ...errorAnswers(400, 401, 403) },
      },
      handler: exportRecords(resourceContext),
    });
  }
  if (offers('verify') && !behaviour.replaces?.includes('verify')) {
    app.post(`${base}/:id/verify`, {
      config: can('verify', { action: 'verify' }),
      schema: {
        ...about(`verify${singular}`, `Verify a ${one}`),
        params: idParams,
        response: { 200: saved, ...errorAnswers(400, 401, 403, 404) },
      },
      handler: verifyRecord(resourceContext),
    });
  }
  registerHistoryAndTrash(app, resourceContext, { base, offers, can, about, singular, plural, one, several });
}
