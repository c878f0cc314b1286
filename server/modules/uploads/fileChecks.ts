import type { FastifyRequest } from 'fastify';
import Papa from 'papaparse';
import type { Queryable } from '../../db/database.ts';
import { HttpError, validationError } from '../../http/errors.ts';
import { configuredColumns, headerProblem } from './columns.ts';
import { multipartBoundary, parseMultipart } from './multipart.ts';

/** What a trade file is checked for, wherever it arrives (posted to the server, or to the bucket). */
export const CSV_TYPES = new Set(['text/csv', 'application/csv', 'application/vnd.ms-excel', 'text/plain', 'application/octet-stream']);

export function checkSize(size: number, declaredSize: number, uploadMaxBytes: number): void {
  if (size > Math.min(declaredSize, uploadMaxBytes)) {
    throw new HttpError(413, `The file is larger than the ${declaredSize} bytes announced for this upload.`);
  }
}

/** UTF-8 CSV text whose header has the configured data columns of the upload's trade direction. */
export async function checkContent(db: Queryable, data: Buffer, upload: Record<string, unknown>): Promise<void> {
  const text = csvText(data);
  const header = (Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { preview: 1 }).data[0] ?? []).map((name) => name.trim());
  const problem = headerProblem(header, await configuredColumns(db, String(upload.trade_direction ?? 'both')));
  if (problem) throw validationError({ file: problem });
}

/** A bare file name: no directory part, no parent reference, no control characters. */
export function isPlainFileName(name: string): boolean {
  return name.length > 0 && name.length <= 255 && !/[/\\]/.test(name) && ![...name].some((character) => character.charCodeAt(0) < 32) && !name.includes('..') && name.trim() === name;
}

/** The file of a multipart body (field `file`) and the confirmation of a duplicate beside it. */
export function fileOf(request: FastifyRequest): { filename: string; contentType: string | null; data: Buffer; confirmDuplicate: boolean } {
  const boundary = multipartBoundary(request.headers['content-type']);
  const parts = boundary && Buffer.isBuffer(request.body) ? parseMultipart(request.body, boundary) : null;
  if (!parts) throw new HttpError(415, 'Send the file as multipart/form-data in the field "file".');
  const file = parts.find((part) => part.name === 'file' && part.filename !== null);
  if (!file || file.filename === null) throw validationError({ file: 'This field is required' });
  const confirmation = parts.find((part) => part.name === 'confirm_duplicate' && part.filename === null);
  return { filename: file.filename, contentType: file.contentType, data: file.data, confirmDuplicate: confirmation?.data.toString('utf8') === 'true' };
}

/** The file as UTF-8 text, refusing binary content that merely carries a .csv name. */
function csvText(data: Buffer): string {
  if (data.length === 0) throw validationError({ file: 'The file is empty.' });
  if (data.subarray(0, 8192).includes(0)) throw new HttpError(415, 'Only CSV files can be uploaded.');
  const text = new TextDecoder('utf-8', { fatal: false }).decode(data);
  if (text.includes('\uFFFD')) throw new HttpError(415, 'The file is not UTF-8 text.');
  return text;
}
