import type { FastifyInstance } from 'fastify';
import { csvAnswer, errorAnswers } from '../../http/answers.ts';
import { csvLine, sendCsvFile } from '../../http/csv.ts';
import { HttpError, forbidden, notFound, validationError } from '../../http/errors.ts';
import { idParams } from '../../http/requestSchemas.ts';
import { MODULE, entityResource } from '../../registry.ts';
import { recordSchema } from '../resources/answers.ts';
import { ResourceTable } from '../resources/sql.ts';
import { currentUser, permission } from '../auth/access.ts';
import { actorOf, recordAudit } from '../audit/record.ts';
import { removeUnstoredFile } from './abandonedUploads.ts';
import { recordImportOutcome } from './audit.ts';
import { progressOf, readProgress, requestCancel } from './importProgress.ts';
import { CANCELLED_ERROR } from './importErrors.ts';
import { endProcessing, fileLog, fileOwner, lockIdleFile, markReplacesPublished } from './uploadFiles.ts';
import { rejectedRows, rejectionReasons } from './uploadRejections.ts';
import { setUploadState, uploadStatuses } from './uploadState.ts';
import { importAnswers, progressListQuery } from './importSchemas.ts';

const REJECTIONS_BATCH = 1000;
/** The rejections an upload's log lists at the most; the download has them all. */
const LOG_REJECTIONS = 10_000;

/**
 * An upload's import as its log and its list show it (docs/api.md): its state with the progress every instance reads
 * while it runs, its cancel, the confirmation that it replaces what is published for its month, and its rejected rows.
 */
export async function uploadImportRoutes(app: FastifyInstance): Promise<void> {
  const uploads = entityResource(MODULE.dataUploadLogs);
  if (!uploads) return;
  const { db } = app;
  const table = new ResourceTable(uploads);
  const answers = importAnswers(recordSchema(uploads));
  const tags = [uploads.label];
  /** Who started an existing upload, and whether its import has ended; 404 when there is no such upload. */
  const existingFileOwner = async (id: number) => {
    const file = await fileOwner(db, id);
    if (!file || !(await table.get(db, id, null))) throw notFound('Upload');
    return file;
  };
  const anyUploader = {
    anyOf: [
      { module: MODULE.dataUploadLogs, action: 'add' },
      { module: MODULE.dataUploadLogs, action: 'delete' },
    ],
  };

  app.get<{ Params: { id: number } }>('/uploads/:id/log', {
    config: { access: permission(MODULE.dataUploadLogs, 'view_detail') },
    schema: {
      tags,
      operationId: 'getUploadLog',
      summary: "An upload's log, with its import's progress while it runs",
      params: idParams,
      response: { 200: answers.log, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const upload = await table.get(db, request.params.id, null);
      if (!upload) throw notFound('Upload');
      const file = await fileLog(db, request.params.id);
      const rejected = await rejectionReasons(db, request.params.id, LOG_REJECTIONS);
      return {
        data: { upload: { ...upload, ...(file ?? {}) }, progress: await readProgress(db, request.params.id), rejected },
      };
    },
  });

  app.get<{ Querystring: { ids: string } }>('/uploads/progress', {
    config: { access: permission(MODULE.dataUploadLogs, 'view') },
    schema: {
      tags,
      operationId: 'listUploadProgress',
      summary: 'The import progress and status of several uploads (a page of the list)',
      querystring: progressListQuery,
      response: { 200: answers.progressList, ...errorAnswers(400, 401, 403) },
    },
    handler: async (request) => {
      const ids = request.query.ids.split(',').map(Number);
      if (ids.some((id) => !Number.isSafeInteger(id) || id <= 0) || ids.length > 100)
        throw validationError({ ids: 'Give at most 100 upload ids, separated by commas.' });
      const progress = await progressOf(db, ids);
      // With each upload's status, so that a list following its running uploads sees them end.
      const statusOf = await uploadStatuses(db, ids);
      return {
        data: [...progress.entries()]
          .filter(([uploadId]) => statusOf.has(uploadId))
          .map(([uploadId, row]) => ({ upload_id: uploadId, status: statusOf.get(uploadId)!, ...row })),
      };
    },
  });

  app.post<{ Params: { id: number } }>('/uploads/:id/cancel', {
    config: { access: anyUploader, audit: { action: 'import' } },
    schema: {
      tags,
      operationId: 'cancelUpload',
      summary: "Cancel an upload's import",
      description:
        'The uploader, or a user with `delete` on uploads. An upload waiting for its file or its turn is cancelled at once; a running import within a few seconds, rolled back whole. 409 when it has already ended.',
      params: idParams,
      response: { 202: answers.cancelled, ...errorAnswers(400, 401, 403, 404, 409) },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      const id = request.params.id;
      const file = await existingFileOwner(id);
      if (file.user_id !== user.id && !user.grants.can(MODULE.dataUploadLogs, 'delete'))
        throw forbidden(MODULE.dataUploadLogs, 'cancel an upload of another user');
      if (file.processed_at) throw new HttpError(409, 'This upload has already ended.');
      await requestCancel(db, id, user.id);
      // Not being imported (no instance holds it): it ends now. Being imported: its importer reads the request.
      const unstored = await db.transaction(async (tx) => {
        const idle = await lockIdleFile(tx, id);
        if (!idle) {
          await recordImportOutcome(tx, id, user.id, { cancel_requested: true });
          return null;
        }
        await endProcessing(tx, id, CANCELLED_ERROR);
        await setUploadState(
          app,
          tx,
          id,
          { status: 'cancelled' },
          { actor: actorOf(request), action: 'import', details: { status: 'cancelled', error: CANCELLED_ERROR } },
        );
        return idle.stored_at === null ? idle.storage_key : null;
      });
      // Cancelled while its file arrived: what arrived goes now (or, while a chunk is still being written, in the
      // abandoned-uploads job's next round).
      if (unstored) {
        await removeUnstoredFile(app, id, unstored).catch((error: unknown) => {
          request.log.error(
            { err: error, upload: id },
            'removing the partial file of a cancelled upload failed; the abandoned-uploads job tries again',
          );
        });
      }
      reply.code(202);
      return { data: await table.get(db, id, null), message: 'The upload is being cancelled.' };
    },
  });

  app.post<{ Params: { id: number } }>('/uploads/:id/replace', {
    config: { access: permission(MODULE.dataUploadLogs, 'add'), audit: { action: 'update' } },
    schema: {
      tags,
      operationId: 'replacePublishedUpload',
      summary: 'Confirm that an upload replaces what is published for its country, trade direction and period',
      description:
        'By its uploader, before its import ends. When it is published, the published uploads of the same country, trade direction and period are taken out in the same transaction (status `replaced`): readers see the old records until then and the new ones after, never both. The same bytes as a published upload are then accepted without `confirm_duplicate`. 409 when it has ended.',
      params: idParams,
      response: { 200: answers.replacing, ...errorAnswers(400, 401, 403, 404, 409) },
    },
    handler: async (request) => {
      const user = currentUser(request);
      const id = request.params.id;
      const file = await existingFileOwner(id);
      if (file.user_id !== user.id) throw forbidden(MODULE.dataUploadLogs, 'confirm an upload of another user');
      const updated = await db.transaction(async (tx) => {
        const marked = await markReplacesPublished(tx, id);
        if (marked)
          await recordAudit(tx, actorOf(request), {
            module: MODULE.dataUploadLogs,
            recordId: id,
            action: 'update',
            details: { replaces_published: true },
          });
        return marked;
      });
      if (!updated) throw new HttpError(409, 'This upload has already ended.');
      return {
        data: { upload_id: id, replaces_published: true },
        message:
          'When it is published, this upload replaces the published one of its country, trade direction and period.',
      };
    },
  });

  app.get<{ Params: { id: number } }>('/uploads/:id/rejections.csv', {
    config: { access: permission(MODULE.dataUploadLogs, 'view_detail') },
    schema: {
      tags,
      operationId: 'downloadUploadRejections',
      summary: "An upload's rejected rows as CSV: line, reason and the row as it was",
      params: idParams,
      response: {
        200: csvAnswer(
          'CSV, streamed as an attachment; cells a spreadsheet would run as formulas are prefixed with a quote.',
        ),
        ...errorAnswers(400, 401, 403, 404),
      },
    },
    handler: async (request, reply) => {
      const id = request.params.id;
      if (!(await table.get(db, id, null))) throw notFound('Upload');
      async function* lines(): AsyncGenerator<string> {
        yield csvLine(['line', 'reason', 'row']);
        let after = 0;
        for (;;) {
          const rows = await rejectedRows(db, id, after, REJECTIONS_BATCH);
          if (rows.length === 0) return;
          yield rows.map((row) => csvLine([row.line, row.reason, row.row_text])).join('');
          after = rows.at(-1)!.line;
        }
      }
      return sendCsvFile(reply, `upload-${id}-rejected-rows.csv`, lines());
    },
  });
}
