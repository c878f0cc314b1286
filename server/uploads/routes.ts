import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Papa from 'papaparse';
import { currentUser, permission } from '../auth/access.ts';
import { HttpError, notFound, validationError } from '../http/errors.ts';
import { MODULE, entityResource } from '../registry.ts';
import { idParams, writeSchema } from '../resources/schemas.ts';
import { ResourceTable } from '../resources/sql.ts';
import { configuredColumns, headerProblem } from './columns.ts';
import { multipartBoundary, parseMultipart } from './multipart.ts';
import { setUploadState } from './processor.ts';
import { isValidUploadSignature, uploadSignature } from './signing.ts';

const CSV_TYPES = new Set(['text/csv', 'application/csv', 'application/vnd.ms-excel', 'text/plain', 'application/octet-stream']);
const MULTIPART_OVERHEAD = 64 * 1024;

interface UploadRequestBody {
  country_id: number;
  trade_direction: string;
  period: string;
  file_name: string;
  size: number;
}

/** Data upload (docs/api.md): a signed, expiring, size-limited URL; the file posted to it; its log. */
export async function uploadRoutes(app: FastifyInstance): Promise<void> {
  const uploads = entityResource(MODULE.dataUploadLogs);
  if (!uploads) return;
  const { db, config } = app;
  const table = new ResourceTable(uploads);

  // Files arrive as multipart/form-data; the body is buffered up to the upload limit and split here.
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: config.uploadMaxBytes + MULTIPART_OVERHEAD }, (_request, body, done) => {
    done(null, body);
  });

  app.post<{ Body: UploadRequestBody }>('/uploads', {
    config: { access: permission(MODULE.dataUploadLogs, 'add') },
    schema: { body: writeSchema(uploads.entity.createSchema) },
    handler: async (request, reply) => {
      const user = currentUser(request);
      const { file_name: fileName, size } = request.body;
      if (!isPlainFileName(fileName)) throw validationError({ file_name: 'The file name must not contain a path.' });
      if (!/\.csv$/i.test(fileName)) throw validationError({ file_name: 'Only CSV files can be uploaded.' });
      if (size > config.uploadMaxBytes) throw validationError({ size: `Max value is ${config.uploadMaxBytes}` });
      const expiresAt = Math.floor(Date.now() / 1000) + config.uploadUrlSeconds;
      const id = await db.transaction(async (tx) => {
        const values: Record<string, unknown> = { ...request.body, status: 'pending', rows_total: 0, rows_accepted: 0, rows_rejected: 0 };
        const known = Object.fromEntries(Object.entries(values).filter(([name]) => uploads.entity.fields.some((field) => field.name === name)));
        const created = await table.insert(tx, known);
        await tx.query(`INSERT INTO upload_files (upload_id, user_id, declared_size, expires_at) VALUES ($1, $2, $3, to_timestamp($4))`, [created, user.id, size, expiresAt]);
        return created;
      });
      const url = `${origin(app, request)}/api/v1/uploads/${id}/file?expires=${expiresAt}&signature=${uploadSignature(config.jwtSecret, id, expiresAt)}`;
      reply.code(201);
      return {
        data: { upload: await table.get(db, id, null), upload_url: url, fields: {}, expires_at: new Date(expiresAt * 1000).toISOString(), max_bytes: config.uploadMaxBytes },
        message: 'Upload the file to upload_url.',
      };
    },
  });

  app.post<{ Params: { id: number }; Querystring: { expires: number; signature: string }; Body: Buffer }>('/uploads/:id/file', {
    config: { access: 'public', xsrfExempt: true },
    bodyLimit: config.uploadMaxBytes + MULTIPART_OVERHEAD,
    schema: {
      params: idParams,
      querystring: {
        type: 'object',
        additionalProperties: false,
        required: ['expires', 'signature'],
        properties: { expires: { type: 'integer', minimum: 0, maximum: 99_999_999_999 }, signature: { type: 'string', maxLength: 100 } },
      },
    },
    handler: async (request) => {
      const { id } = request.params;
      const { expires, signature } = request.query;
      if (!isValidUploadSignature(config.jwtSecret, id, expires, signature)) throw new HttpError(403, 'This upload link is not valid.');
      if (expires * 1000 <= Date.now()) throw new HttpError(403, 'This upload link has expired. Start the upload again.');
      const [pending] = await db.query<{ user_id: number | null; declared_size: number; stored_at: string | null }>(
        'SELECT user_id, declared_size, stored_at FROM upload_files WHERE upload_id = $1',
        [id],
      );
      const upload = await table.get(db, id, null);
      if (!pending || !upload) throw notFound('Upload');
      if (pending.stored_at) throw new HttpError(409, 'A file was already uploaded with this link.');

      const file = fileOf(request);
      if (!isPlainFileName(file.filename)) throw validationError({ file: 'The file name must not contain a path.' });
      if (!/\.csv$/i.test(file.filename) || (file.contentType !== null && !CSV_TYPES.has(file.contentType))) {
        throw new HttpError(415, 'Only CSV files can be uploaded.');
      }
      if (file.data.length > Math.min(pending.declared_size, config.uploadMaxBytes)) {
        throw new HttpError(413, `The file is larger than the ${pending.declared_size} bytes announced for this upload.`);
      }
      const text = csvText(file.data);
      const header = (Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { preview: 1 }).data[0] ?? []).map((name) => name.trim());
      const problem = headerProblem(header, await configuredColumns(db, String(upload.trade_direction ?? 'both')));
      if (problem) throw validationError({ file: problem });

      const storageKey = `uploads/${id}-${randomBytes(8).toString('hex')}.csv`;
      const claimed = await db.query('UPDATE upload_files SET stored_at = now(), storage_key = $2, stored_size = $3 WHERE upload_id = $1 AND stored_at IS NULL RETURNING upload_id', [
        id,
        storageKey,
        file.data.length,
      ]);
      if (claimed.length === 0) throw new HttpError(409, 'A file was already uploaded with this link.');
      try {
        await app.storage.put(storageKey, file.data);
      } catch (error) {
        await db.query('UPDATE upload_files SET stored_at = NULL, storage_key = NULL, stored_size = NULL WHERE upload_id = $1', [id]);
        throw error;
      }
      await setUploadState(db, id, { status: 'processing' });
      app.uploads.enqueue({
        uploadId: id,
        userId: pending.user_id,
        storageKey,
        fileName: String(upload.file_name ?? file.filename),
        countryId: typeof upload.country_id === 'number' ? upload.country_id : null,
        tradeDirection: String(upload.trade_direction ?? ''),
        period: typeof upload.period === 'string' ? upload.period : null,
      });
      return { data: await table.get(db, id, null), message: 'The file was received and is being processed.' };
    },
  });

  app.get<{ Params: { id: number } }>('/uploads/:id/log', {
    config: { access: permission(MODULE.dataUploadLogs, 'view_detail') },
    schema: { params: idParams },
    handler: async (request) => {
      const upload = await table.get(db, request.params.id, null);
      if (!upload) throw notFound('Upload');
      const [file] = await db.query('SELECT stored_at, processed_at, error FROM upload_files WHERE upload_id = $1', [request.params.id]);
      const rejected = await db.query('SELECT line, reason FROM upload_rejections WHERE upload_id = $1 ORDER BY line LIMIT 10000', [request.params.id]);
      return { data: { upload: { ...upload, ...(file ?? {}) }, rejected } };
    },
  });
}

/** A bare file name: no directory part, no parent reference, no control characters. */
function isPlainFileName(name: string): boolean {
  return name.length > 0 && name.length <= 255 && !/[/\\]/.test(name) && ![...name].some((character) => character.charCodeAt(0) < 32) && !name.includes('..') && name.trim() === name;
}

function fileOf(request: FastifyRequest): { filename: string; contentType: string | null; data: Buffer } {
  const boundary = multipartBoundary(request.headers['content-type']);
  const parts = boundary && Buffer.isBuffer(request.body) ? parseMultipart(request.body, boundary) : null;
  if (!parts) throw new HttpError(415, 'Send the file as multipart/form-data in the field "file".');
  const file = parts.find((part) => part.name === 'file' && part.filename !== null);
  if (!file || file.filename === null) throw validationError({ file: 'This field is required' });
  return { filename: file.filename, contentType: file.contentType, data: file.data };
}

/** The file as UTF-8 text, refusing binary content that merely carries a .csv name. */
function csvText(data: Buffer): string {
  if (data.length === 0) throw validationError({ file: 'The file is empty.' });
  if (data.subarray(0, 8192).includes(0)) throw new HttpError(415, 'Only CSV files can be uploaded.');
  const text = new TextDecoder('utf-8', { fatal: false }).decode(data);
  if (text.includes('\uFFFD')) throw new HttpError(415, 'The file is not UTF-8 text.');
  return text;
}

function origin(app: FastifyInstance, request: FastifyRequest): string {
  return (app.config.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/$/, '');
}
