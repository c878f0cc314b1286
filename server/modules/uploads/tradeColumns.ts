/**
 * The columns of a trade record, named once: the upload check, the import and the report read them, and the report's
 * route declares its answer with them (the table itself: server/migrations/002_trade_data.sql).
 */
import { STANDARD_COLUMNS, type TradeColumn } from '../../../validation/tradeRows.ts';

// The columns and the header check are the upload screen's too (its dry run): they live with the row checks.
export { STANDARD_COLUMNS, headerProblem, type ColumnType, type TradeColumn } from '../../../validation/tradeRows.ts';

/** What a record takes from its upload rather than from its file. */
const UPLOAD_COLUMNS = {
  id: { type: 'integer' },
  upload_id: { type: 'integer' },
  country_id: { type: ['integer', 'null'] },
  trade_direction: { type: ['string', 'null'] },
  period: { type: ['string', 'null'] },
} as const;

/** A trade record as the uploaded-data report answers it and its export lists it. */
export const TRADE_RECORD_COLUMNS: readonly string[] = [
  ...Object.keys(UPLOAD_COLUMNS),
  ...STANDARD_COLUMNS.map((column) => column.name),
];

function columnSchema({ type, required }: TradeColumn): Record<string, unknown> {
  if (type === 'date') return { type: 'string', format: 'date' };
  if (type === 'number') return { type: 'number' };
  return required ? { type: 'string' } : { type: ['string', 'null'] };
}

/** The JSON Schema of a trade record in the report's answer. */
export const tradeRecordSchema = {
  type: 'object',
  required: ['id', 'upload_id', ...STANDARD_COLUMNS.filter((column) => column.required).map((column) => column.name)],
  properties: {
    ...UPLOAD_COLUMNS,
    ...Object.fromEntries(STANDARD_COLUMNS.map((column) => [column.name, columnSchema(column)])),
  },
};
