import type { FastifyInstance } from 'fastify';
import { permission } from '../auth/access.ts';
import { ENTITY_RESOURCES } from '../../registry.ts';
import { bulkStatusBody, exportQuerySchema, idParams, idsBody, listQuerySchema, optionsQuery, statusBody, writeSchema } from '../../../contract/resources.ts';
import type { ResourceBehaviours } from './behaviours.ts';
import { deleteRecord, deleteRecords, setRecordStatus, setRecordsStatus } from './change.ts';
import { ResourceEndpoint } from './endpoint.ts';
import { exportRecords } from './export.ts';
import { listOptions, optionsAccess } from './options.ts';
import { listRecords, showRecord } from './read.ts';
import { ResponseCache } from './responseCache.ts';
import { verifyRecord } from './verify.ts';
import { createRecord, updateRecord } from './write.ts';

/** The generic endpoints of every manifest resource with an entity (docs/api.md, "Resource endpoints"). */
export async function resourceRoutes(app: FastifyInstance, { behaviours }: { behaviours: ResourceBehaviours }): Promise<void> {
  const responses = new ResponseCache();
  for (const resource of ENTITY_RESOURCES) registerResource(app, new ResourceEndpoint(app, resource, behaviours[resource.key] ?? {}, responses));
}

/** Each endpoint the resource's actions offer, with its access rule, its request schema and its handler. */
function registerResource(app: FastifyInstance, endpoint: ResourceEndpoint): void {
  const { resource, behaviour } = endpoint;
  const base = `/${resource.api}`;
  const offers = (action: string) => resource.actions.includes(action);
  const can = (action: string) => ({ access: permission(resource.key, action) });

  if (offers('view')) {
    app.get(base, { config: can('view'), schema: { querystring: listQuerySchema(resource) }, handler: listRecords(endpoint) });
    app.get(`${base}/:id`, { config: can('view'), schema: { params: idParams }, handler: showRecord(endpoint) });
  }
  app.get(`${base}/options`, { config: { access: optionsAccess(resource) }, schema: { querystring: optionsQuery }, handler: listOptions(endpoint) });
  if (offers('add') && !behaviour.replaces?.includes('create')) {
    app.post(base, { config: can('add'), schema: { body: writeSchema(resource.entity.createSchema) }, handler: createRecord(endpoint) });
  }
  if (offers('edit')) {
    app.put(`${base}/:id`, { config: can('edit'), schema: { params: idParams, body: writeSchema(resource.entity.updateSchema) }, handler: updateRecord(endpoint) });
  }
  if (offers('delete')) {
    app.delete(`${base}/:id`, { config: can('delete'), schema: { params: idParams }, handler: deleteRecord(endpoint) });
    app.delete(base, { config: can('delete'), schema: { body: idsBody }, handler: deleteRecords(endpoint) });
  }
  if (offers('ACTIVE_INACTIVE')) {
    app.patch(`${base}/:id/status`, { config: can('ACTIVE_INACTIVE'), schema: { params: idParams, body: statusBody }, handler: setRecordStatus(endpoint) });
    app.patch(`${base}/status`, { config: can('ACTIVE_INACTIVE'), schema: { body: bulkStatusBody }, handler: setRecordsStatus(endpoint) });
  }
  if (offers('download')) {
    app.get(`${base}/export`, { config: can('download'), schema: { querystring: exportQuerySchema(resource) }, handler: exportRecords(endpoint) });
  }
  if (offers('verify')) {
    app.post(`${base}/:id/verify`, { config: can('verify'), schema: { params: idParams }, handler: verifyRecord(endpoint) });
  }
}

