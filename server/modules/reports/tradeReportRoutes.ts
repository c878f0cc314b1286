import type { FastifyInstance } from 'fastify';
import { currentUser, permission } from '../auth/access.ts';
import { csvAnswer, errorAnswers } from '../../http/answers.ts';
import { sendCsvFile } from '../../http/csv.ts';
import { conflict, notFound, validationError } from '../../http/errors.ts';
import { idParams } from '../../http/requestSchemas.ts';
import { MODULE } from '../../registry.ts';
import {
  EXPORT_IN_BACKGROUND_ROWS,
  TRADE_CSV_HEADER,
  exportFile,
  exportOf,
  requestExport,
  tradeCsvLines,
  type ReportExport,
} from './reportExports.ts';
import { reportExportAnswer, tradeExportQuery, tradeQuery, tradeRecordPageAnswer } from './schemas.ts';
import {
  decodeCursor,
  encodeCursor,
  tradeReportBatches,
  tradeReportPage,
  tradeReportTotal,
  type Position,
  type TradeFilter,
} from './tradeReport.ts';

type TradeQuery = TradeFilter & { _page_size: number; _after?: string; _before?: string };

const CURSOR_NOT_GIVEN = 'Not a cursor this report gave: start again from the first page.';

/** The uploaded-data report: its pages by keyset, its CSV export streamed or written in the background. */
export async function tradeReportRoutes(app: FastifyInstance): Promise<void> {
  const { db, storage } = app;
  const tags = ['Uploaded data report'];
  const view = permission(MODULE.uploadedDataReport, 'view');
  const download = permission(MODULE.uploadedDataReport, 'download');
  const exportPath = (job: ReportExport) => `uploaded-data-report/exports/${job.id}/file`;
  const shown = (job: ReportExport) => ({ ...job, file: job.status === 'completed' ? exportPath(job) : null });

  app.get<{ Querystring: TradeQuery }>('/uploaded-data-report', {
    config: { access: view },
    schema: {
      tags,
      operationId: 'listUploadedTradeRecords',
      summary: 'Uploaded trade records',
      description:
        "Newest shipment first, paged by keyset: `meta.next` / `meta.previous` are cursors for `_after` / `_before`. `q` searches product, HS code, importer and exporter. `meta.total` is exact from the uploads' counts without `q`, otherwise estimated (`total_is_estimate`).",
      querystring: tradeQuery,
      response: { 200: tradeRecordPageAnswer, ...errorAnswers(400, 401, 403) },
    },
    handler: async (request) => {
      const { _page_size: size, _after: after, _before: before, ...filter } = request.query;
      if (after !== undefined && before !== undefined)
        throw validationError({ _before: 'Give either _after or _before, not both.' });
      const position = (field: '_after' | '_before', cursor: string | undefined): Position | undefined => {
        if (cursor === undefined) return undefined;
        const decoded = decodeCursor(cursor);
        if (!decoded) throw validationError({ [field]: CURSOR_NOT_GIVEN });
        return decoded;
      };
      const pageRequest = { size, after: position('_after', after), before: position('_before', before) };
      const [page, counted] = await Promise.all([
        tradeReportPage(db, filter, pageRequest),
        tradeReportTotal(db, filter),
      ]);
      // A first page that is also the last holds every match: its count is exact, whatever was estimated.
      const whole = !after && !before && page.next === null;
      const total = whole ? { total: page.rows.length, estimated: false } : counted;
      return {
        data: page.rows,
        meta: {
          total: total.total,
          total_is_estimate: total.estimated,
          page_size: size,
          next: page.next && encodeCursor(page.next),
          previous: page.previous && encodeCursor(page.previous),
          export_in_background: total.total > EXPORT_IN_BACKGROUND_ROWS,
        },
      };
    },
  });

  app.get<{ Querystring: TradeFilter }>('/uploaded-data-report/export', {
    config: { access: download },
    schema: {
      tags,
      operationId: 'exportUploadedTradeRecords',
      summary: 'Export the uploaded trade records as CSV',
      description: 'Every matching record, however many, newest first, streamed as it is read (keyset batches).',
      querystring: tradeExportQuery,
      response: { 200: csvAnswer('CSV, streamed as an attachment.'), ...errorAnswers(400, 401, 403) },
    },
    handler: async (request, reply) => {
      const batchRows = app.config.reportExport.batchRows;
      async function* lines(): AsyncGenerator<string> {
        yield TRADE_CSV_HEADER;
        for await (const { rows } of tradeReportBatches(db, request.query, undefined, batchRows))
          yield tradeCsvLines(rows);
      }
      return sendCsvFile(reply, 'uploaded-data.csv', lines());
    },
  });

  app.post<{ Body: TradeFilter }>('/uploaded-data-report/exports', {
    config: {
      access: download,
      audit: { none: 'it reads records the caller may already download; nothing in the data changes' },
    },
    schema: {
      tags,
      operationId: 'startUploadedTradeRecordsExport',
      summary: 'Export the uploaded trade records in the background',
      description:
        'For large exports: the file is written as a background export, whose progress `GET uploaded-data-report/exports/{id}` tells and whose `file` is its download once completed. Only its requester sees it.',
      body: tradeExportQuery,
      response: { 202: reportExportAnswer, ...errorAnswers(400, 401, 403) },
    },
    handler: async (request, reply) => {
      const filter = request.body ?? {};
      const { total } = await tradeReportTotal(db, filter);
      const job = await requestExport(db, currentUser(request).id, filter, total);
      app.reportExports.kick();
      return reply.code(202).send({ data: shown(job) });
    },
  });

  app.get<{ Params: { id: number } }>('/uploaded-data-report/exports/:id', {
    config: { access: download },
    schema: {
      tags,
      operationId: 'getUploadedTradeRecordsExport',
      summary: 'A background export and how far it is',
      params: idParams,
      response: { 200: reportExportAnswer, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const job = await exportOf(db, request.params.id, currentUser(request).id);
      if (!job) throw notFound('Export');
      const { parts: _parts, ...answered } = job;
      return { data: shown(answered) };
    },
  });

  app.get<{ Params: { id: number } }>('/uploaded-data-report/exports/:id/file', {
    config: { access: download },
    schema: {
      tags,
      operationId: 'downloadUploadedTradeRecordsExport',
      summary: 'The CSV file of a completed background export',
      params: idParams,
      response: { 200: csvAnswer('CSV, streamed as an attachment.'), ...errorAnswers(400, 401, 403, 404, 409) },
    },
    handler: async (request, reply) => {
      const job = await exportOf(db, request.params.id, currentUser(request).id);
      if (!job) throw notFound('Export');
      if (job.status !== 'completed') throw conflict('The export is not completed yet.');
      return sendCsvFile(reply, `uploaded-data-${job.id}.csv`, exportFile(storage, job));
    },
  });
}
