/** Uploaded trade data, trending products, the admin summary and the module registry: queries and answers. */
import type { JsonSchema } from '../../../contract/description.ts';
import { dataAnswer, json, wholeObject } from '../../http/answers.ts';
import { namedSchema } from '../../http/components.ts';
import { recordId } from '../../http/requestSchemas.ts';
import { tradeRecordSchema } from '../uploads/tradeColumns.ts';

const tradeFilters = {
  country_id: recordId,
  trade_direction: { type: 'string', enum: ['import', 'export'] },
  period: { type: 'string', format: 'period' },
  upload_id: recordId,
  q: { type: 'string', maxLength: 200 },
} as const;

const cursor = { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' } as const;

export const tradeQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...tradeFilters,
    _page_size: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    _after: { ...cursor, description: 'The page after this one: `meta.next` of a page.' },
    _before: { ...cursor, description: 'The page before this one: `meta.previous` of a page.' },
  },
} as const;

export const tradeExportQuery = { type: 'object', additionalProperties: false, properties: tradeFilters } as const;

export const reportSummaryQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { from: { type: 'string', format: 'date' }, to: { type: 'string', format: 'date' } },
} as const;

const string = { type: 'string' };
const integer = { type: 'integer' };
const number = { type: 'number' };
const month = { type: 'string', description: 'YYYY-MM' };
const nullableString = { type: ['string', 'null'] };

function series(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'array', items: wholeObject({ month, ...properties }) };
}

export const tradeRecordPageAnswer = {
  description: 'A page of trade records, newest shipment first.',
  content: json(
    wholeObject({
      data: { type: 'array', items: namedSchema('TradeRecord', tradeRecordSchema) },
      meta: wholeObject({
        total: {
          ...integer,
          description: "How many records match: exact, or the database's estimate when `total_is_estimate`.",
        },
        total_is_estimate: { type: 'boolean' },
        page_size: integer,
        next: { ...nullableString, description: 'The cursor of the next page (`_after`), or null on the last one.' },
        previous: {
          ...nullableString,
          description: 'The cursor of the previous page (`_before`), or null on the first one.',
        },
        export_in_background: {
          type: 'boolean',
          description: 'Whether an export of this filter is large enough to run as a background export.',
        },
      }),
    }),
  ),
};

const reportExport = namedSchema(
  'ReportExport',
  wholeObject({
    id: integer,
    status: { type: 'string', enum: ['queued', 'running', 'completed', 'failed'] },
    rows_estimated: integer,
    rows_written: integer,
    error: nullableString,
    created_at: { type: 'string', format: 'date-time' },
    finished_at: { type: ['string', 'null'], format: 'date-time' },
    file: { ...nullableString, description: 'The path of its CSV file (under the API base) once completed.' },
  }),
);

export const reportExportAnswer = dataAnswer('A background export of the report and how far it is.', reportExport);

export const trendingAnswer = dataAnswer(
  'The products most shipped in the last months, as of the last refresh.',
  wholeObject({
    synced_at: { type: ['string', 'null'], format: 'date-time' },
    items: {
      type: 'array',
      items: wholeObject({ hs_code: string, product: string, shipments: integer, value: number }),
    },
  }),
);

export const trendingRefreshedAnswer = dataAnswer(
  'Refreshed.',
  wholeObject({ synced_at: { type: 'string', format: 'date-time' }, rows: integer }),
  { message: true },
);

export const summaryAnswer = dataAnswer(
  'Each series by month.',
  wholeObject({
    subscribers_by_plan: series({ plan: string, subscribers: integer }),
    points_consumed: series({ points: integer }),
    uploads_per_month: series({ uploads: integer }),
    revenue: series({ revenue: number }),
  }),
);

export const modulesAnswer = dataAnswer('Every area with its resources, their actions and routes.', {
  type: 'array',
  items: wholeObject({
    key: string,
    label: string,
    path: string,
    order: integer,
    sidebar_link: nullableString,
    resources: {
      type: 'array',
      items: wholeObject({
        key: string,
        label: string,
        api: string,
        actions: { type: 'array', items: string },
        routes: { type: 'object', additionalProperties: wholeObject({ path: string, routable: { type: 'boolean' } }) },
        has_entity: { type: 'boolean' },
      }),
    },
  }),
});
