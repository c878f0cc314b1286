import { reportSummaryQuery, tradeExportQuery, tradeQuery, uploadColumnsQuery, uploadCompleteBody, uploadFileQuery } from '../../contract/endpoints.ts';
import { MODULE } from '../../contract/modules.ts';
import { idParams } from '../../contract/resources.ts';
import { tradeRecordSchema } from '../../contract/tradeRecords.ts';
import type { ResourceModel } from '../../contract/description.ts';
import { dateTime, integer, nullableString, number, object, string } from './openapiFixedCommon.ts';
import { csvAnswer, dataAnswer, json, jsonBody, listAnswer, type OperationSpec, ref } from './openapiOperation.ts';

// The fixed endpoints of trade-data uploads and of the reports.
export function uploadOperations(uploads: ResourceModel): OperationSpec[] {
  const tag = uploads.label;
  const upload = ref(uploads.typeName);
  const uploaded = dataAnswer('The file was received and is being processed.', upload, true);
  const fileChecks =
    'Refused: 403 after the link expired, 413 larger than announced, 415 not CSV text in UTF-8, 400 a header that does not match the data columns (`errors.file`); ' +
    '409 with `errors.confirm_duplicate` (naming the earlier upload, when and by whom) when the same bytes were already uploaded for the same country, trade direction and period, unless `confirm_duplicate` is true.';
  return [
    {
      method: 'post',
      path: '/uploads',
      tag,
      summary: 'Start a trade-data upload',
      access: { module: MODULE.dataUploadLogs, action: 'add' },
      notes: 'Answers where to send the file: post `fields`, then the file as the multipart field `file` (last), to `upload_url`; then, when `complete_path` is not null (bucket storage), POST it.',
      requestBody: jsonBody(ref(`${uploads.typeName}Create`)),
      answers: {
        '201': dataAnswer(
          'The upload and its signed, expiring target.',
          object({
            upload,
            upload_url: { type: 'string', format: 'uri' },
            fields: { type: 'object', additionalProperties: string, description: 'Form fields to post before the file (a bucket\'s presigned policy); empty for the data folder.' },
            complete_path: { ...nullableString, description: '`uploads/<id>/complete` with bucket storage, else null.' },
            expires_at: dateTime,
            max_bytes: integer,
          }),
          true,
        ),
      },
    },
    {
      method: 'get',
      path: '/uploads/columns',
      tag,
      summary: 'The columns a trade file must have',
      access: { module: MODULE.dataUploadLogs, action: 'add' },
      notes: 'The data columns the header of a file for this trade direction is checked against, in order; `required` ones must be present, others may be.',
      query: uploadColumnsQuery,
      answers: { '200': dataAnswer('The expected columns.', { type: 'array', items: object({ name: string, required: { type: 'boolean' } }) }) },
    },
    {
      method: 'post',
      path: '/uploads/{id}/file',
      tag,
      summary: 'Post the file of an upload (the signed `upload_url`)',
      access: 'public',
      storage: 'folder',
      notes: `The signature in the URL is the authorisation. ${fileChecks} 409 a file was already posted.`,
      params: idParams,
      query: uploadFileQuery,
      requestBody: { required: true, content: { 'multipart/form-data': { schema: object({ confirm_duplicate: { type: 'string', enum: ['true'] }, file: { type: 'string', contentMediaType: 'text/csv' } }, ['file']), encoding: { file: { contentType: 'text/csv' } } } } },
      answers: { '200': uploaded },
      errors: [404, 409, 413, 415],
    },
    {
      method: 'post',
      path: '/uploads/{id}/complete',
      tag,
      summary: 'Complete an upload posted to the bucket (`complete_path`)',
      access: { module: MODULE.dataUploadLogs, action: 'add' },
      storage: 'bucket',
      notes: `The server checks the file in the bucket; a refused one is deleted and the upload failed. 400 (\`errors.file\`) when no file has arrived yet. ${fileChecks} 409 already completed.`,
      params: idParams,
      requestBody: { content: json(uploadCompleteBody) },
      answers: { '200': uploaded },
      errors: [404, 409, 413, 415],
    },
    {
      method: 'get',
      path: '/uploads/{id}/log',
      tag,
      summary: 'An upload\'s log',
      access: { module: MODULE.dataUploadLogs, action: 'view_detail' },
      params: idParams,
      answers: {
        '200': dataAnswer(
          'The upload with its file\'s state, and the rejected lines (at most 10,000).',
          object({
            upload: { allOf: [upload, { type: 'object', properties: { stored_at: { type: ['string', 'null'], format: 'date-time' }, processed_at: { type: ['string', 'null'], format: 'date-time' }, error: nullableString } }] },
            rejected: { type: 'array', items: object({ line: integer, reason: string }) },
          }),
        ),
      },
      errors: [404],
    },
  ];
}

export function reportOperations(): OperationSpec[] {
  const month = { type: 'string', description: 'YYYY-MM' };
  const tradeRecord = tradeRecordSchema;
  const summaryRange = 'Monthly series from `from` to `to` (inclusive dates; either may be left out).';
  const reporting = { module: MODULE.adminReporting, action: 'view' };
  return [
    {
      method: 'get',
      path: '/uploaded-data-report',
      tag: 'Uploaded data report',
      summary: 'Uploaded trade records',
      access: { module: MODULE.uploadedDataReport, action: 'view' },
      notes: 'Newest shipments first; `q` searches product, HS code, importer and exporter.',
      query: tradeQuery,
      answers: { '200': listAnswer('A page of trade records.', tradeRecord) },
    },
    {
      method: 'get',
      path: '/uploaded-data-report/export',
      tag: 'Uploaded data report',
      summary: 'Export the uploaded trade records as CSV',
      access: { module: MODULE.uploadedDataReport, action: 'download' },
      query: tradeExportQuery,
      answers: { '200': csvAnswer('CSV, streamed as an attachment.') },
    },
    {
      method: 'get',
      path: '/sync-trending-data',
      tag: 'Trending data',
      summary: 'The trending products',
      access: { module: MODULE.syncTrendingData, action: 'view' },
      answers: {
        '200': dataAnswer(
          'The products most shipped in the last months, as of the last refresh.',
          object({ synced_at: { type: ['string', 'null'], format: 'date-time' }, items: { type: 'array', items: object({ hs_code: string, product: string, shipments: integer, value: number }) } }),
        ),
      },
    },
    {
      method: 'post',
      path: '/sync-trending-data/refresh',
      tag: 'Trending data',
      summary: 'Recompute the trending products',
      access: { module: MODULE.syncTrendingData, action: 'refresh' },
      answers: { '200': dataAnswer('Refreshed.', object({ synced_at: dateTime, rows: integer }), true) },
    },
    {
      method: 'get',
      path: '/reports/summary',
      tag: 'Admin reporting',
      summary: 'The admin report',
      access: reporting,
      notes: summaryRange,
      query: reportSummaryQuery,
      answers: {
        '200': dataAnswer(
          'Each series by month.',
          object({
            subscribers_by_plan: { type: 'array', items: object({ month, plan: string, subscribers: integer }) },
            points_consumed: { type: 'array', items: object({ month, points: integer }) },
            uploads_per_month: { type: 'array', items: object({ month, uploads: integer }) },
            revenue: { type: 'array', items: object({ month, revenue: number }) },
          }),
        ),
      },
    },
    {
      method: 'get',
      path: '/reports/summary/export',
      tag: 'Admin reporting',
      summary: 'Export the admin report as CSV',
      access: { allOf: [reporting, { module: MODULE.adminReporting, action: 'download' }] },
      notes: `${summaryRange} One row per series and month: \`Report,Month,Plan,Value\`.`,
      query: reportSummaryQuery,
      answers: { '200': csvAnswer('CSV, as an attachment.') },
    },
    {
      method: 'get',
      path: '/modules',
      tag: 'Module registry',
      summary: 'The manifest\'s modules',
      access: { module: MODULE.moduleRegistry, action: 'view' },
      answers: {
        '200': dataAnswer(
          'Every area with its resources, their actions and routes.',
          {
            type: 'array',
            items: object({
              key: string,
              label: string,
              path: string,
              order: integer,
              sidebar_link: nullableString,
              resources: {
                type: 'array',
                items: object({
                  key: string,
                  label: string,
                  api: string,
                  actions: { type: 'array', items: string },
                  routes: { type: 'object', additionalProperties: object({ path: string, routable: { type: 'boolean' } }) },
                  has_entity: { type: 'boolean' },
                }),
              },
            }),
          },
        ),
      },
    },
  ];
}
