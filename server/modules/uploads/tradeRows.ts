// A trade file's records as COPY text: the header held to the data columns, then each row checked with the rules and
// messages of every upload, an accepted row as its line of COPY text, a rejected one kept with its line and reason.
import { BadTradeFile } from './tradeFile.ts';
import { STANDARD_COLUMNS, headerProblem, type TradeColumn } from './tradeColumns.ts';

export const MAX_STORED_REJECTIONS = 10_000;
/** How much of a rejected row is kept for its download. */
const MAX_REJECTED_ROW_CHARS = 2000;
/** COPY input is handed on in pieces of about this many characters. */
export const COPY_PIECE_CHARS = 256 * 1024;
const MAX_CELL_LENGTH = 1000;
const HS_CODE = /^\d{2,10}$/;
const NUMBER = /^-?\d+(?:\.\d+)?$/;
const COPY_SPECIAL = /[\\\t\n\r]/;

export interface ImportSummary {
  total: number;
  accepted: number;
  rejected: number;
}

export interface Rejection {
  line: number;
  reason: string;
  row: string;
}

const STANDARD_NAMES = new Set(STANDARD_COLUMNS.map((column) => column.name));

/** Whether the data columns go beyond the standard ones: those are loaded together as the record's `extra`. */
export function hasExtraColumns(columns: readonly TradeColumn[]): boolean {
  return columns.some((column) => !STANDARD_NAMES.has(column.name));
}

/**
 * The accepted rows of `batches` (a file's records, header first: tradeFileBatches) as COPY text in pieces of about
 * COPY_PIECE_CHARS, counting every row in `summary` and keeping the first MAX_STORED_REJECTIONS rejections in
 * `rejections`. A header that does not match the columns fails before any row is read.
 */
export async function* copyText(batches: AsyncIterator<string[][]>, columns: readonly TradeColumn[], summary: ImportSummary, rejections: Rejection[]): AsyncGenerator<string> {
  const first = await batches.next();
  if (first.done || first.value.length === 0) throw new BadTradeFile('The file is empty: it has no header row.');
  const [headerRecord, ...firstRows] = first.value;
  const header = headerRecord!.map((name) => name.trim());
  const problem = headerProblem(header, columns);
  if (problem) throw new BadTradeFile(problem);

  const position = new Map(header.map((name, index) => [name, index]));
  const checks = columns.map((column) => ({ column, at: position.get(column.name) }));
  const hsCodeAt = position.get('hs_code');
  const standardAt = STANDARD_COLUMNS.map((column) => position.get(column.name));
  const extrasAt = columns.filter((column) => !STANDARD_NAMES.has(column.name)).map((column) => [column.name, position.get(column.name)] as const);

  /** A record as its line of COPY text, or null (counted and kept as a rejection) when it fails a check. */
  const copyLine = (fields: readonly string[]): string | null => {
    summary.total += 1;
    const problem = fields.length === header.length ? rowProblem(fields, checks, hsCodeAt) : `the row has ${fields.length} field(s), the header ${header.length}`;
    if (problem) {
      summary.rejected += 1;
      if (rejections.length < MAX_STORED_REJECTIONS) rejections.push({ line: summary.total + 1, reason: detached(problem), row: detached(csvLine(fields).slice(0, MAX_REJECTED_ROW_CHARS)) });
      return null;
    }
    summary.accepted += 1;
    let text = standardAt.map((index) => copyValue(index === undefined ? undefined : fields[index])).join('\t');
    if (extrasAt.length) text += `\t${copyValue(JSON.stringify(Object.fromEntries(extrasAt.map(([name, index]) => [name, emptyToNull(index === undefined ? undefined : fields[index])]))))}`;
    return `${text}\n`;
  };

  let piece = '';
  for (let batch: string[][] | undefined = firstRows; batch; ) {
    for (const fields of batch) {
      piece += copyLine(fields) ?? '';
      if (piece.length < COPY_PIECE_CHARS) continue;
      yield piece;
      piece = '';
    }
    const next = await batches.next();
    batch = next.done ? undefined : next.value;
  }
  if (piece) yield piece;
}

/** A value in COPY's text format: trimmed, empty as NULL, its backslashes, tabs and line breaks escaped. */
function copyValue(value: string | undefined): string {
  const trimmed = (value ?? '').trim();
  if (trimmed === '') return '\\N';
  return COPY_SPECIAL.test(trimmed) ? trimmed.replace(/[\\\t\n\r]/g, (character) => COPY_ESCAPES[character]!) : trimmed;
}

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * A copy of a text that holds nothing else: a part of a longer string (a slice, a field parsed out of a piece of the
 * file) keeps the whole of it alive, so kept rejections would otherwise keep every piece of text they came from.
 */
function detached(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** Fields as one CSV line, each quoted when it needs to be. */
function csvLine(fields: readonly string[]): string {
  return fields.map((field) => (/[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field)).join(',');
}

/** What is wrong with a record's fields (each column found at `at` in them), or null when nothing is. */
function rowProblem(fields: readonly string[], checks: ReadonlyArray<{ column: TradeColumn; at: number | undefined }>, hsCodeAt: number | undefined): string | null {
  for (const { column, at } of checks) {
    const value = at === undefined ? '' : fields[at]!.trim();
    if (value === '') {
      if (column.required) return `${column.name} is required`;
      continue;
    }
    if (value.length > MAX_CELL_LENGTH) return `${column.name} is longer than ${MAX_CELL_LENGTH} characters`;
    if (value.includes('\u0000')) return `${column.name} contains a NUL character`;
    if (column.type === 'number' && !(NUMBER.test(value) && Number(value) >= 0 && Number.isFinite(Number(value)))) {
      return `${column.name} must be a number of zero or more, got "${value.slice(0, 40)}"`;
    }
    if (column.type === 'date' && !isCalendarDate(value)) return `${column.name} must be a date as YYYY-MM-DD, got "${value.slice(0, 40)}"`;
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
  return year >= 1900 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function emptyToNull(value: string | undefined): string | null {
  const trimmed = (value ?? '').trim();
  return trimmed === '' ? null : trimmed;
}
