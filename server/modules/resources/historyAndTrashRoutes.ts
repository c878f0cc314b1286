import type { RouteAudit } from '../audit/routeAudit.ts';
import type { FastifyInstance } from 'fastify';
import { ENTRIES_PAGE_QUERY, HISTORY_ANSWERS } from '../audit/answers.ts';
import { errorAnswers } from '../../http/answers.ts';
import { IF_MATCH_HEADER } from '../../http/recordVersion.ts';
import { idParams, exactObject, recordId } from '../../http/requestSchemas.ts';
import type { Access } from '../auth/access.ts';
import { recordAnswers } from './answers.ts';
import type { ResourceContext } from './resourceContext.ts';
import { listHistory, restoreVersion } from './historyEndpoints.ts';
import { listTrash, purgeRecord, restoreRecord } from './trashEndpoints.ts';
import { acceptFormerPageNames } from '../../http/formerPageNames.ts';

/** How the routes of one resource are named and guarded (routes.ts). */
export interface RouteNaming {
  base: string;
  offers(action: string): boolean;
  can(action: string, audit?: RouteAudit): { access: Access; audit?: RouteAudit };
  about(operationId: string, summary: string, description?: string): Record<string, unknown>;
  /** `Voucher`, `Vouchers`, `voucher`, `vouchers`. */
  singular: string;
  plural: string;
  one: string;
  several: string;
}

const entryParams = exactObject({ id: recordId, entry: recordId });

/**
 * A record's history and a resource's trash (docs/api.md, "Audit log, history and trash"). Restoring a version is an
 * edit; restoring a deleted record undoes a delete, so it takes the delete permission, as deleting it for good does.
 */
export function registerHistoryAndTrash(
  app: FastifyInstance,
  resourceContext: ResourceContext,
  { base, offers, can, about, singular, plural, one, several }: RouteNaming,
): void {
  const { resource } = resourceContext;
  const { saved } = recordAnswers(resource);
  if (offers('view')) {
    app.get(`${base}/:id/history`, {
      config: can('view'),
      schema: {
        ...about(
          `get${singular}History`,
          `The history of a ${one}`,
          'Its entries newest first: who changed what, when, from where; secrets only as changed.',
        ),
        params: idParams,
        querystring: ENTRIES_PAGE_QUERY,
        response: { 200: HISTORY_ANSWERS.history, ...errorAnswers(400, 401, 403, 404) },
      },
      preHandler: acceptFormerPageNames,
      handler: listHistory(resourceContext),
    });
  }
  if (offers('edit') && resource.entity.history) {
    app.post(`${base}/:id/history/:entry/restore`, {
      config: can('edit', { action: 'restore_version' }),
      schema: {
        ...about(
          `restore${singular}Version`,
          `Restore a version of a ${one}`,
          'Writes the fields the entry holds back, as an update at the version `If-Match` names.',
        ),
        params: entryParams,
        headers: IF_MATCH_HEADER,
        response: { 200: saved, ...errorAnswers(400, 401, 403, 404, 409, 412, 428) },
      },
      handler: restoreVersion(resourceContext),
    });
  }
  if (!offers('delete') || !resource.entity.softDelete) return;
  if (offers('view')) {
    app.get(`${base}/trash`, {
      config: can('view'),
      schema: {
        ...about(`list${plural}Trash`, `Deleted ${several}`, 'Newest first, with who deleted each and when.'),
        querystring: ENTRIES_PAGE_QUERY,
        response: { 200: HISTORY_ANSWERS.trash, ...errorAnswers(400, 401, 403) },
      },
      preHandler: acceptFormerPageNames,
      handler: listTrash(resourceContext),
    });
  }
  app.post(`${base}/:id/restore`, {
    config: can('delete', { action: 'restore' }),
    schema: {
      ...about(
        `restore${singular}`,
        `Restore a deleted ${one}`,
        'With its id and the records its delete took with it; its version moves on. A value now taken, or a related record gone: 409.',
      ),
      params: idParams,
      response: { 200: saved, ...errorAnswers(400, 401, 403, 404, 409) },
    },
    handler: restoreRecord(resourceContext),
  });
  app.delete(`${base}/:id/permanent`, {
    config: can('delete', { action: 'purge' }),
    schema: {
      ...about(`purge${singular}`, `Delete a deleted ${one} for good`),
      params: idParams,
      response: { 200: HISTORY_ANSWERS.purged, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: purgeRecord(resourceContext),
  });
}
