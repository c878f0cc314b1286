// A stored trade-data file's rows, checked against the data columns and written as trade records in the import's
// transaction; rows that fail a check are kept as rejections with their line and reason.
import Papa from 'papaparse';
import type { Queryable } from '../../db/database.ts';
import { STANDARD_COLUMNS, type TradeColumn } from './tradeColumns.ts';
import { insertTradeRecords, type TradeUpload } from './tradeRecords.ts';

const MAX_ROWS = 2_000_000;
const MAX_STORED_REJECTIONS = 10_000;
const INSERT_BATCH = 500;
const MAX_CELL_LENGTH = 1000;
const HS_CODE = /^\d{2,10}$/;

export interface ImportSummary {
  total: number;
  accepted: number;
  rejected: number;
}

export async function importRows(tx: Queryable, job: TradeUpload, text: string, columns: readonly TradeColumn[]): Promise<ImportSummary> {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: 'greedy', preview: MAX_ROWS });
  const standard = new Set(STANDARD_COLUMNS.map((column) => column.name));
  const extras = columns.filter((column) => !standard.has(column.name));
  const summary: ImportSummary = { total: 0, accepted: 0, rejected: 0 };
  let batch: Array<Record<string, unknown>> = [];
  const rejections: Array<{ line: number; reason: string }> = [];
  const malformed = new Map(parsed.errors.filter((error) => error.row !== undefined).map((error) => [error.row!, error.message]));

  for (const [index, row] of parsed.data.entries()) {
    const line = index + 2;
    summary.total += 1;
    const problem = malformed.get(index) ?? rowProblem(row, columns);
    if (problem) {
      summary.rejected += 1;
      if (rejections.length < MAX_STORED_REJECTIONS) rejections.push({ line, reason: problem });
      continue;
    }
    const record: Record<string, unknown> = {};
    for (const column of STANDARD_COLUMNS) record[column.name] = emptyToNull(row[column.name]);
    record.extra = JSON.stringify(Object.fromEntries(extras.map((column) => [column.name, emptyToNull(row[column.name])])));
    batch.push(record);
    summary.accepted += 1;
    if (batch.length >= INSERT_BATCH) {
      await insertTradeRecords(tx, job, batch);
      batch = [];
    }
  }
  if (batch.length) await insertTradeRecords(tx, job, batch);
  for (let start = 0; start < rejections.length; start += INSERT_BATCH) {
    const slice = rejections.slice(start, start + INSERT_BATCH);
    await tx.query('INSERT INTO upload_rejections (upload_id, line, reason) SELECT $1, l, r FROM unnest($2::int[], $3::text[]) AS x(l, r) ON CONFLICT DO NOTHING', [
      job.uploadId,
      slice.map((rejection) => rejection.line),
      slice.map((rejection) => rejection.reason),
    ]);
  }
  return summary;
}

function rowProblem(row: Record<string, string>, columns: readonly TradeColumn[]): string | null {
  for (const column of columns) {
    const value = (row[column.name] ?? '').trim();
    if (value === '') {
      if (column.required) return `${column.name} is required`;
      continue;
    }
    if (value.length > MAX_CELL_LENGTH) return `${column.name} is longer than ${MAX_CELL_LENGTH} characters`;
    if (value.includes('\u0000')) return `${column.name} contains a NUL character`;
    if (column.type === 'number' && !(/^-?\d+(?:\.\d+)?$/.test(value) && Number(value) >= 0 && Number.isFinite(Number(value)))) {
      return `${column.name} must be a number of zero or more, got "${value.slice(0, 40)}"`;
    }
    if (column.type === 'date' && !isCalendarDate(value)) return `${column.name} must be a date as YYYY-MM-DD, got "${value.slice(0, 40)}"`;
  }
  const hsCode = (row.hs_code ?? '').trim();
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
