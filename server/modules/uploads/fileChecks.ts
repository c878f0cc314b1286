import { constants as zlib, gunzipSync } from 'node:zlib';
import type { FastifyRequest } from 'fastify';
import Papa from 'papaparse';
import type { Queryable } from '../../db/database.ts';
import { HttpError, validationError } from '../../http/errors.ts';
import { configuredColumns } from './columns.ts';
import { headerProblem } from './tradeColumns.ts';
import { NOT_CSV, NOT_GZIP, TEXT_SNIFF_BYTES, isGzipName, startsAsGzip } from '../../../validation/tradeCsv.ts';
import { multipartBoundary, parseMultipart } from './multipart.ts';

export function checkSize(size: number, declaredSize: number, uploadMaxBytes: number): void {
  if (size > Math.min(declaredSize, uploadMaxBytes)) {
    throw new HttpError(413, `The file is larger than the ${declaredSize} bytes announced for this upload.`);
  }
}

/** How much of the beginning of a stored file its arrival check reads (its header line must fit in it, expanded). */
export const BEGINNING_BYTES = 64 * 1024;

/** A name of a file the server takes: CSV text, or CSV compressed with gzip. */
export function isTradeFileName(name: string): boolean {
  return /\.csv(\.gz)?$/i.test(name);
}

export { isGzipName } from '../../../validation/tradeCsv.ts';

/**
 * The arrival check of a trade file from its beginning alone (the rows are the processor's): UTF-8 CSV text, gunzipped
 * first for a `.gz` name, whose header has the configured data columns of the upload's trade direction. `whole` says
 * the beginning is the whole file.
 */
export async function checkBeginning(
  db: Queryable,
  beginning: Buffer,
  whole: boolean,
  upload: Record<string, unknown>,
): Promise<void> {
  const header = headerLine(expanded(beginning, whole, isGzipName(String(upload.file_name ?? ''))), whole);
  const names = (Papa.parse<string[]>(header.replace(/^\uFEFF/, ''), { preview: 1 }).data[0] ?? []).map((name) =>
    name.trim(),
  );
  const problem = headerProblem(names, await configuredColumns(db, String(upload.trade_direction ?? 'both')));
  if (problem) throw validationError({ file: problem });
}

/** The beginning as CSV bytes: gunzipped as far as it goes for a gzip file (the rest of the stream is not needed). */
function expanded(beginning: Buffer, whole: boolean, gzip: boolean): Buffer {
  if (beginning.length === 0) throw validationError({ file: 'The file is empty.' });
  if (!gzip) return beginning;
  if (!startsAsGzip(beginning)) throw new HttpError(415, NOT_GZIP);
  try {
    return gunzipSync(beginning, {
      finishFlush: whole ? zlib.Z_FINISH : zlib.Z_SYNC_FLUSH,
      maxOutputLength: BEGINNING_BYTES * 64,
    });
  } catch {
    throw new HttpError(415, NOT_GZIP);
  }
}

/** The text of the header line (and what follows it within the beginning), refusing what is no UTF-8 text. */
function headerLine(data: Buffer, whole: boolean): string {
  if (data.length === 0) throw validationError({ file: 'The file is empty.' });
  if (data.subarray(0, TEXT_SNIFF_BYTES).includes(0)) throw new HttpError(415, NOT_CSV);
  // Only whole lines: the beginning may end inside a character.
  const end = whole ? data.length : data.lastIndexOf(0x0a) + 1;
  if (end === 0) throw validationError({ file: `The header line is longer than ${BEGINNING_BYTES / 1024} KiB.` });
  const text = new TextDecoder('utf-8', { fatal: false }).decode(data.subarray(0, end));
  if (text.includes('\uFFFD')) throw new HttpError(415, 'The file is not UTF-8 text.');
  return text;
}

/** A bare file name: no directory part, no parent reference, no control characters. */
export function isPlainFileName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= 255 &&
    !/[/\\]/.test(name) &&
    ![...name].some((character) => character.charCodeAt(0) < 32) &&
    !name.includes('..') &&
    name.trim() === name
  );
}

/** The file of a multipart body (field `file`) and the confirmation of a duplicate beside it. */
export function fileOf(request: FastifyRequest): {
  filename: string;
  contentType: string | null;
  data: Buffer;
  confirmDuplicate: boolean;
} {
  const boundary = multipartBoundary(request.headers['content-type']);
  const parts = boundary && Buffer.isBuffer(request.body) ? parseMultipart(request.body, boundary) : null;
  if (!parts) throw new HttpError(415, 'Send the file as multipart/form-data in the field "file".');
  const file = parts.find((part) => part.name === 'file' && part.filename !== null);
  if (!file || file.filename === null) throw validationError({ file: 'This field is required' });
  const confirmation = parts.find((part) => part.name === 'confirm_duplicate' && part.filename === null);
  return {
    filename: file.filename,
    contentType: file.contentType,
    data: file.data,
    confirmDuplicate: confirmation?.data.toString('utf8') === 'true',
  };
}
