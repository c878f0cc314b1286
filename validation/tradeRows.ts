/**
 * The rules a trade file's header and rows are held to, in one place for the server's import and the upload screen's
 * dry run, so that the dry run never says something the import would not. Plain TypeScript: no Node or DOM APIs.
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
  ...columns(true, {
    shipment_date: 'date',
    hs_code: 'string',
    product_description: 'string',
    quantity: 'number',
    unit: 'string',
    value: 'number',
  }),
  ...columns(false, {
    importer: 'string',
    exporter: 'string',
    origin_country: 'string',
    destination_country: 'string',
    port_of_loading: 'string',
    port_of_discharge: 'string',
  }),
];

/** What a header misses, has beyond the columns, and has twice. */
export interface HeaderCheck {
  missing: string[];
  unknown: string[];
  repeated: string[];
}

/** The header's names held to the columns: the required ones it lacks, the names no column has, the names it repeats. */
export function checkHeader(header: readonly string[], columns: readonly TradeColumn[]): HeaderCheck {
  const known = new Set(columns.map((column) => column.name));
  return {
    missing: columns.filter((column) => column.required && !header.includes(column.name)).map((column) => column.name),
    unknown: header.filter((name) => !known.has(name)),
    repeated: [...new Set(header.filter((name, index) => header.indexOf(name) !== index))],
  };
}

/** What is wrong with a CSV header, or null when it has every required column and only known ones. */
export function headerProblem(header: readonly string[], columns: readonly TradeColumn[]): string | null {
  const { missing, unknown, repeated } = checkHeader(header, columns);
  const problems: string[] = [];
  if (missing.length) problems.push(`missing column(s): ${missing.join(', ')}`);
  if (unknown.length) problems.push(`unknown column(s): ${unknown.slice(0, 20).join(', ')}`);
  if (repeated.length) problems.push(`repeated column(s): ${repeated.join(', ')}`);
  return problems.length
    ? `The file's header does not match the configured data columns: ${problems.join('; ')}.`
    : null;
}

/** The names of a CSV header record as they are compared: each trimmed. */
export function headerNames(record: readonly string[]): string[] {
  return record.map((name) => name.trim());
}

/** A record whose fields are all blank is no row: a blank line, or one of commas only. */
export function isBlankRecord(record: readonly string[]): boolean {
  return record.every((field) => field.trim() === '');
}

const MAX_CELL_LENGTH = 1000;
const HS_CODE = /^\d{2,10}$/;
const NUMBER = /^-?\d+(?:\.\d+)?$/;
/**
 * A number with its thousands grouped by commas, as people write it: the western way (4,800,000) or the Indian one,
 * lakhs and crores (48,00,000; 1,23,456.50), as the console shows numbers. Only whole groups: 12,34 is no number.
 */
const GROUPED_NUMBER = /^(?:\d{1,3}(?:,\d{3})+|\d{1,2}(?:,\d{2})+,\d{3})(?:\.\d+)?$/;

/** The formats a column's values are accepted in, as the upload screen, the template and docs/api.md say them. */
export const ACCEPTED_FORMATS: Record<ColumnType, string> = {
  date: 'a date as YYYY-MM-DD (2026-09-01); no other date format is accepted',
  number: 'a number of zero or more: 1234.5, or grouped by commas as 4,800,000 or 48,00,000 (1,23,456.50)',
  string: `text of at most ${MAX_CELL_LENGTH.toLocaleString('en')} characters`,
};

/** What hs_code takes, beyond being text. */
export const HS_CODE_FORMAT = '2 to 10 digits (0904, 09042110)';

/** Whether a trimmed value is a number the import takes: plain digits, or grouped by commas. */
export function isAcceptedNumber(value: string): boolean {
  if (NUMBER.test(value)) return Number(value) >= 0 && Number.isFinite(Number(value));
  return GROUPED_NUMBER.test(value) && Number.isFinite(Number(plainNumber(value)));
}

/** An accepted number as it is stored: its grouping commas taken out. */
export function plainNumber(value: string): string {
  return value.includes(',') ? value.replaceAll(',', '') : value;
}

/** A column and where a file's header has it (undefined when the file lacks it). */
interface ColumnAt {
  column: TradeColumn;
  at: number | undefined;
}

/**
 * The check of a file's rows against its header and the columns: for a record's fields, what is wrong with them, or
 * null when they are accepted. The messages are the ones a rejected row is kept with.
 */
export function rowCheck(
  header: readonly string[],
  columns: readonly TradeColumn[],
): (fields: readonly string[]) => string | null {
  const position = new Map(header.map((name, index) => [name, index]));
  const checks: ColumnAt[] = columns.map((column) => ({ column, at: position.get(column.name) }));
  const hsCodeAt = position.get('hs_code');
  return (fields) =>
    fields.length === header.length
      ? rowProblem(fields, checks, hsCodeAt)
      : `the row has ${fields.length} field(s), the header ${header.length}`;
}

function rowProblem(
  fields: readonly string[],
  checks: readonly ColumnAt[],
  hsCodeAt: number | undefined,
): string | null {
  for (const { column, at } of checks) {
    const value = at === undefined ? '' : fields[at]!.trim();
    if (value === '') {
      if (column.required) return `${column.name} is required`;
      continue;
    }
    if (value.length > MAX_CELL_LENGTH) return `${column.name} is longer than ${MAX_CELL_LENGTH} characters`;
    if (value.includes('\u0000')) return `${column.name} contains a NUL character`;
    if (column.type === 'number' && !isAcceptedNumber(value)) {
      return `${column.name} must be a number of zero or more (1234.5, 4,800,000 or 48,00,000), got "${value.slice(0, 40)}"`;
    }
    if (column.type === 'date' && !isCalendarDate(value))
      return `${column.name} must be a date as YYYY-MM-DD, got "${value.slice(0, 40)}"`;
  }
  const hsCode = hsCodeAt === undefined ? '' : fields[hsCodeAt]!.trim();
  if (!HS_CODE.test(hsCode)) return `hs_code must be 2 to 10 digits, got "${hsCode.slice(0, 40)}"`;
  return null;
}

function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1900 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/** A value as a CSV field: quoted when it holds a comma, a quote or a line break. */
export function csvField(field: string): string {
  return /[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field;
}

/** A template of a trade file for the columns: the header, and one example shipment in the accepted formats. */
export function templateCsv(columns: readonly TradeColumn[]): string {
  const example = (column: TradeColumn): string => {
    const standard = EXAMPLE[column.name];
    if (standard !== undefined) return standard;
    if (column.type === 'number') return '1,000';
    if (column.type === 'date') return '2026-09-01';
    return column.required ? 'text' : '';
  };
  return `${columns.map((column) => csvField(column.name)).join(',')}\r\n${columns.map((column) => csvField(example(column))).join(',')}\r\n`;
}

const EXAMPLE: Record<string, string> = {
  shipment_date: '2026-09-01',
  hs_code: '0904',
  product_description: 'Black pepper',
  quantity: '1,200',
  unit: 'KGS',
  value: '3,45,000.50',
  importer: 'Acme Spices GmbH',
  exporter: 'Kerala Spice Traders',
  origin_country: 'India',
  destination_country: 'Germany',
  port_of_loading: 'Kochi',
  port_of_discharge: 'Hamburg',
};
