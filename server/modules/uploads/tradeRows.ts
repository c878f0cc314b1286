// A trade file's records as COPY text: the header held to the data columns, then each row checked with the rules and
// messages of every upload, an accepted row as its line of COPY text, a rejected one kept with its line and reason.
import { BadTradeFile } from './tradeFile.ts';
import { STANDARD_COLUMNS, headerProblem, type TradeColumn } from './tradeColumns.ts';
import { csvField, headerNames, plainNumber, rowCheck } from '../../../validation/tradeRows.ts';

export const MAX_STORED_REJECTIONS = 10_000;
/** How much of a rejected row is kept for its download. */
const MAX_REJECTED_ROW_CHARS = 2000;
/** COPY input is handed on in pieces of about this many characters. */
export const COPY_PIECE_CHARS = 256 * 1024;
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
export async function* copyText(
  batches: AsyncIterator<string[][]>,
  columns: readonly TradeColumn[],
  summary: ImportSummary,
  rejections: Rejection[],
): AsyncGenerator<string> {
  const first = await batches.next();
  if (first.done || first.value.length === 0) throw new BadTradeFile('The file is empty: it has no header row.');
  const [headerRecord, ...firstRows] = first.value;
  const header = headerNames(headerRecord!);
  const problem = headerProblem(header, columns);
  if (problem) throw new BadTradeFile(problem);

  const position = new Map(header.map((name, index) => [name, index]));
  const problemOf = rowCheck(header, columns);
  const standardAt = STANDARD_COLUMNS.map((column) => ({
    at: position.get(column.name),
    number: column.type === 'number',
  }));
  const extrasAt = columns
    .filter((column) => !STANDARD_NAMES.has(column.name))
    .map((column) => ({ name: column.name, at: position.get(column.name), number: column.type === 'number' }));
  /** A field as it is stored: a number without its grouping commas (an accepted row's numbers are all numbers). */
  const stored = ({ at, number }: { at: number | undefined; number: boolean }, fields: readonly string[]) => {
    const value = at === undefined ? undefined : fields[at];
    return number && value !== undefined ? plainNumber(value) : value;
  };

  /** A record as its line of COPY text, or null (counted and kept as a rejection) when it fails a check. */
  const copyLine = (fields: readonly string[]): string | null => {
    summary.total += 1;
    const problem = problemOf(fields);
    if (problem) {
      summary.rejected += 1;
      if (rejections.length < MAX_STORED_REJECTIONS)
        rejections.push({
          line: summary.total + 1,
          reason: detached(problem),
          row: detached(csvLine(fields).slice(0, MAX_REJECTED_ROW_CHARS)),
        });
      return null;
    }
    summary.accepted += 1;
    let text = standardAt.map((column) => copyValue(stored(column, fields))).join('\t');
    if (extrasAt.length)
      text += `\t${copyValue(JSON.stringify(Object.fromEntries(extrasAt.map((column) => [column.name, emptyToNull(stored(column, fields))]))))}`;
    return `${text}\n`;
  };

  let piece = '';
  for (let batch: string[][] | undefined = firstRows; batch;) {
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
  return fields.map(csvField).join(',');
}

function emptyToNull(value: string | undefined): string | null {
  const trimmed = (value ?? '').trim();
  return trimmed === '' ? null : trimmed;
}
