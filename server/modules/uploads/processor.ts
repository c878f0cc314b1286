import type { FastifyBaseLogger } from 'fastify';
import Papa from 'papaparse';
import type { Database, Queryable } from '../../db/database.ts';
import { escapeHtml } from '../../http/html.ts';
import { notify } from '../notifications/notify.ts';
import { MODULE, entityResource, field, quoted } from '../../registry.ts';
import { ResourceTable } from '../resources/sql.ts';
import { configuredColumns } from './columns.ts';
import { contentHash, isMissingFile, type FileStorage } from './storage.ts';
import { STANDARD_COLUMNS, type TradeColumn } from './tradeColumns.ts';
import { insertTradeRecords } from './tradeRecords.ts';

const MAX_ROWS = 2_000_000;
const MAX_STORED_REJECTIONS = 10_000;
const INSERT_BATCH = 500;
const MAX_CELL_LENGTH = 1000;
const HS_CODE = /^\d{2,10}$/;

interface UploadJob {
  uploadId: number;
  userId: number | null;
  storageKey: string;
  /** The SHA-256 of the bytes checked when the file was accepted; null for an upload accepted before it was recorded. */
  storedSha256: string | null;
  fileName: string;
  countryId: number | null;
  tradeDirection: string;
  period: string | null;
}

/** What the log says of an upload whose accepted file is no longer in storage. */
export const MISSING_FILE_ERROR = 'The stored file is gone, so this upload could not be processed. Upload the file again.';
/** What it says of an upload whose stored file no longer has the bytes that were checked when it was accepted. */
export const CHANGED_FILE_ERROR = 'The stored file is not the one that was checked (its content changed after it was accepted). Upload the file again.';
/** What it says of an upload accepted before the server recorded the hash of the checked bytes (migration 006). */
export const UNVERIFIABLE_FILE_ERROR = 'This upload was accepted before the server recorded what it checked, so its stored file cannot be verified. Upload the file again.';

/**
 * Parses stored uploads into trade records after the file has been accepted, one at a time per instance,
 * and ends each with a notification for the uploader. The upload's state lives in the database: an upload is
 * waiting for processing while `upload_files` has `stored_at` and no `processed_at`, so uploads left so by a
 * crash (the import is one transaction, rolled back) are found again at start (`recover`).
 */
export class UploadProcessor {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly storage: FileStorage,
    private readonly log: FastifyBaseLogger,
  ) {}

  enqueue(uploadId: number): void {
    this.queue = this.queue.then(() => this.process(uploadId)).catch((error: unknown) => this.log.error({ err: error, upload: uploadId }, 'upload processing failed'));
  }

  /** Resolves when every queued upload has been processed (tests, shutdown). */
  idle(): Promise<void> {
    return this.queue;
  }

  /** Queues again every accepted upload that was never processed (the server stopped mid-import). */
  async recover(): Promise<number> {
    const waiting = await this.db.query<{ upload_id: number }>('SELECT upload_id FROM upload_files WHERE stored_at IS NOT NULL AND processed_at IS NULL ORDER BY stored_at, upload_id');
    for (const { upload_id: uploadId } of waiting) this.enqueue(uploadId);
    if (waiting.length) this.log.info({ uploads: waiting.map((row) => row.upload_id) }, 'uploads left processing are queued again');
    return waiting.length;
  }

  private async process(uploadId: number): Promise<void> {
    const job = await loadJob(this.db, uploadId);
    if (!job) return;
    try {
      if (job.storedSha256 === null) throw new Error(UNVERIFIABLE_FILE_ERROR);
      let data: Buffer;
      try {
        data = await this.storage.get(job.storageKey);
      } catch (error) {
        if (isMissingFile(error)) throw new Error(MISSING_FILE_ERROR);
        throw error;
      }
      // The bytes imported are the bytes that were checked, whatever the storage: a presigned POST stays usable until
      // it expires, so a bucket object may have been replaced (same size or not) after completion checked it.
      const found = contentHash(data);
      if (found !== job.storedSha256) {
        this.log.warn({ upload: uploadId, key: job.storageKey, checked: job.storedSha256, found }, 'stored upload file changed after it was checked; not imported');
        throw new Error(CHANGED_FILE_ERROR);
      }
      const text = data.toString('utf8');
      const columns = await configuredColumns(this.db, job.tradeDirection);
      // The row lock and the processed_at check make the import happen once, even when two instances (a
      // restarted one recovering, one still at work) take the same upload.
      await this.db.transaction(async (tx) => {
        const [claimed] = await tx.query('SELECT upload_id FROM upload_files WHERE upload_id = $1 AND processed_at IS NULL FOR UPDATE SKIP LOCKED', [uploadId]);
        if (!claimed) return;
        const summary = await importRows(tx, job, text, columns);
        await setUploadState(tx, uploadId, { status: 'completed', rows_total: summary.total, rows_accepted: summary.accepted, rows_rejected: summary.rejected });
        await this.finish(tx, job, null, `Upload <b>${escapeHtml(job.fileName)}</b> is processed: ${summary.accepted} row(s) accepted, ${summary.rejected} rejected.`);
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.log.error({ err: error, upload: uploadId }, `upload processing failed: ${reason}`);
      await this.db.transaction(async (tx) => {
        const [open] = await tx.query('SELECT upload_id FROM upload_files WHERE upload_id = $1 AND processed_at IS NULL FOR UPDATE', [uploadId]);
        if (!open) return;
        await setUploadState(tx, uploadId, { status: 'failed' });
        await this.finish(tx, job, reason, `Upload <b>${escapeHtml(job.fileName)}</b> failed. Please check the file and upload it again.`);
      });
    }
  }

  private async finish(tx: Queryable, job: UploadJob, error: string | null, message: string): Promise<void> {
    await tx.query('UPDATE upload_files SET processed_at = now(), error = $2 WHERE upload_id = $1', [job.uploadId, error]);
    if (job.userId !== null) await notify(tx, job.userId, message);
  }
}

/** An accepted upload still waiting for processing, with what the import needs, or null. */
async function loadJob(db: Queryable, uploadId: number): Promise<UploadJob | null> {
  const uploads = entityResource(MODULE.dataUploadLogs);
  const [file] = await db.query<{ user_id: number | null; storage_key: string | null; stored_sha256: string | null }>(
    'SELECT user_id, storage_key, stored_sha256 FROM upload_files WHERE upload_id = $1 AND stored_at IS NOT NULL AND processed_at IS NULL',
    [uploadId],
  );
  if (!uploads || !file?.storage_key) return null;
  const upload = (await new ResourceTable(uploads).get(db, uploadId, null)) ?? {};
  return {
    uploadId,
    userId: file.user_id,
    storageKey: file.storage_key,
    storedSha256: file.stored_sha256,
    fileName: String(upload.file_name ?? file.storage_key),
    countryId: typeof upload.country_id === 'number' ? upload.country_id : null,
    tradeDirection: String(upload.trade_direction ?? ''),
    period: typeof upload.period === 'string' ? upload.period : null,
  };
}

/** Sets the columns of the DATA_UPLOAD_LOGS record that the manifest has. */
export async function setUploadState(db: Queryable, uploadId: number, values: Record<string, unknown>): Promise<void> {
  const uploads = entityResource(MODULE.dataUploadLogs);
  if (!uploads) return;
  const present = Object.entries(values).filter(([name]) => field(uploads.entity, name));
  const assignments = present.map(([name], index) => `${quoted(name)} = $${index + 2}`);
  await db.query(`UPDATE ${quoted(uploads.entity.table)} SET ${[...assignments, 'updated_at = now()'].join(', ')} WHERE id = $1`, [
    uploadId,
    ...present.map(([, value]) => value),
  ]);
}

interface ImportSummary {
  total: number;
  accepted: number;
  rejected: number;
}

async function importRows(tx: Queryable, job: UploadJob, text: string, columns: readonly TradeColumn[]): Promise<ImportSummary> {
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
