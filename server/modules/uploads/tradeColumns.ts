/**
 * The columns of a trade record, named once: the upload check, the import and the report read them, and the report's
 * route declares its answer with them (the table itself: server/migrations/002_trade_data.sql).
 */
export type ColumnType = 'string' | 'number' | 'date';

export interface TradeColumn {
  name: string;
  type: ColumnType;
  required: boolean;
}

function columns(required: boolean, types: Record<string, ColumnType>): TradeColumn[] {
  return Object.entries(types).map(([name, type]) => ({ name, type, required }));
}

/** The columns that describe a shipment, in the order a shipment is described: an uploaded file's columns. */
export const STANDARD_COLUMNS: readonly TradeColumn[] = [
  ...columns(true, { shipment_date: 'date', hs_code: 'string', product_description: 'string', quantity: 'number', unit: 'string', value: 'number' }),
  ...columns(false, { importer: 'string', exporter: 'string', origin_country: 'string', destination_country: 'string', port_of_loading: 'string', port_of_discharge: 'string' }),
];

/** What is wrong with a CSV header, or null when it has every required column and only known ones. */
export function headerProblem(header: readonly string[], columns: readonly TradeColumn[]): string | null {
  const known = new Set(columns.map((column) => column.name));
  const missing = columns.filter((column) => column.required && !header.includes(column.name)).map((column) => column.name);
  const unknown = header.filter((name) => !known.has(name));
  const duplicated = header.filter((name, index) => header.indexOf(name) !== index);
  const problems: string[] = [];
  if (missing.length) problems.push(`missing column(s): ${missing.join(', ')}`);
  if (unknown.length) problems.push(`unknown column(s): ${unknown.slice(0, 20).join(', ')}`);
  if (duplicated.length) problems.push(`repeated column(s): ${[...new Set(duplicated)].join(', ')}`);
  return problems.length ? `The file's header does not match the configured data columns: ${problems.join('; ')}.` : null;
}

/** What a record takes from its upload rather than from its file. */
const UPLOAD_COLUMNS = {
  id: { type: 'integer' },
  upload_id: { type: 'integer' },
  country_id: { type: ['integer', 'null'] },
  trade_direction: { type: ['string', 'null'] },
  period: { type: ['string', 'null'] },
} as const;

/** A trade record as the uploaded-data report answers it and its export lists it. */
export const TRADE_RECORD_COLUMNS: readonly string[] = [...Object.keys(UPLOAD_COLUMNS), ...STANDARD_COLUMNS.map((column) => column.name)];

function columnSchema({ type, required }: TradeColumn): Record<string, unknown> {
  if (type === 'date') return { type: 'string', format: 'date' };
  if (type === 'number') return { type: 'number' };
  return required ? { type: 'string' } : { type: ['string', 'null'] };
}

/** The JSON Schema of a trade record in the report's answer. */
export const tradeRecordSchema = {
  type: 'object',
  required: ['id', 'upload_id', ...STANDARD_COLUMNS.filter((column) => column.required).map((column) => column.name)],
  properties: { ...UPLOAD_COLUMNS, ...Object.fromEntries(STANDARD_COLUMNS.map((column) => [column.name, columnSchema(column)])) },
};
