/** Uploaded trade data, trending products, the admin summary and the module registry: queries and answers. */
import type { JsonSchema } from '../../../contract/description.ts';
import { dataAnswer, listAnswer } from '../../http/answers.ts';
import { namedSchema } from '../../http/components.ts';
import { MAX_INTEGER } from '../../http/requestSchemas.ts';
import { tradeRecordSchema } from '../uploads/tradeColumns.ts';

const tradeFilters = {
  country_id: { type: 'integer', minimum: 1, maximum: MAX_INTEGER },
  trade_direction: { type: 'string', enum: ['import', 'export'] },
  period: { type: 'string', format: 'period' },
  q: { type: 'string', maxLength: 200 },
} as const;

export const tradeQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...tradeFilters,
    _page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
    _page_size: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
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

function object(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', required: Object.keys(properties), properties };
}

function series(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'array', items: object({ month, ...properties }) };
}

export const tradeRecordPageAnswer = listAnswer('A page of trade records.', namedSchema('TradeRecord', tradeRecordSchema));

export const trendingAnswer = dataAnswer(
  'The products most shipped in the last months, as of the last refresh.',
  object({ synced_at: { type: ['string', 'null'], format: 'date-time' }, items: { type: 'array', items: object({ hs_code: string, product: string, shipments: integer, value: number }) } }),
);

export const trendingRefreshedAnswer = dataAnswer('Refreshed.', object({ synced_at: { type: 'string', format: 'date-time' }, rows: integer }), { message: true });

export const summaryAnswer = dataAnswer(
  'Each series by month.',
  object({
    subscribers_by_plan: series({ plan: string, subscribers: integer }),
    points_consumed: series({ points: integer }),
    uploads_per_month: series({ uploads: integer }),
    revenue: series({ revenue: number }),
  }),
);

export const modulesAnswer = dataAnswer('Every area with its resources, their actions and routes.', {
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
});
