import type { FastifyInstance } from 'fastify';
import { idParams, writeSchema } from '../../http/requestSchemas.ts';
import { currentUser, permission } from '../auth/access.ts';
import { errorAnswers } from '../../http/answers.ts';
import { HttpError, notFound, validationError } from '../../http/errors.ts';
import { MODULE, entityResource } from '../../registry.ts';
import { recordSchema } from '../resources/answers.ts';
import { ResourceTable } from '../resources/sql.ts';
import { actorOf, fieldChanges, recordAudit } from '../audit/record.ts';
import { recordFileOutcome } from './audit.ts';
import { newStorageKey, pendingFile, refuse } from './uploadFiles.ts';
import { configuredColumns } from './columns.ts';
import { claimCheckedFile } from './duplicates.ts';
import { CSV_TYPES, checkContent, checkSize, fileOf, isPlainFileName } from './fileChecks.ts';
import { setUploadState } from './processor.ts';
import { FILE_CHECKS, uploadAnswers, uploadColumnsQuery, uploadCompleteBody, uploadFileBody, uploadFileQuery } from './schemas.ts';
import { isValidUploadSignature, uploadSignature } from './signing.ts';
import { contentHash, takesDirectUploads, type DirectUploadStorage } from './storage.ts';

/** The type a bucket upload must declare; its presigned policy requires exactly this. */
const BUCKET_CSV_TYPE = 'text/csv';
const MULTIPART_OVERHEAD = 64 * 1024;
/** How much later than the link's expiry a bucket may date a file (clock skew between bucket and server). */
const BUCKET_CLOCK_SKEW_MS = 5 * 60 * 1000;

interface UploadRequestBody {
  country_id: number;
  trade_direction: string;
  period: string;
  file_name: string;
  size: number;
}

/** What the routes of the two storages share: the uploads' table, their answers and their tag. */
interface UploadRoutes {
  table: ResourceTable;
  answers: ReturnType<typeof uploadAnswers>;
  tags: string[];
}

/**
 * Data upload (docs/api.md): a signed, expiring, size-limited URL; the file posted to it; its log.
 * With the data folder the URL is this server's own; with a bucket it is a presigned POST to the bucket,
 * and the console then calls `complete` so that the server checks the file there and processes it.
 */
export async function uploadRoutes(app: FastifyInstance): Promise<void> {
  const uploads = entityResource(MODULE.dataUploadLogs);
  if (!uploads) return;
  const { db, config } = app;
  const table = new ResourceTable(uploads);
  const bucket = takesDirectUploads(app.storage) ? app.storage : null;
  const shared: UploadRoutes = { table, answers: uploadAnswers(recordSchema(uploads)), tags: [uploads.label] };
  const { answers, tags } = shared;

  app.post<{ Body: UploadRequestBody }>('/uploads', {
    config: { access: permission(MODULE.dataUploadLogs, 'add'), audit: { action: 'create' } },
    schema: {
      tags,
      operationId: 'startUpload',
      summary: 'Start a trade-data upload',
      description:
        'Answers where to send the file: post `fields`, then the file as the multipart field `file` (last), to `upload_url`; then, when `complete_path` is not null (bucket storage), POST it.',
      body: writeSchema(uploads.entity.createSchema),
      response: { 201: answers.ticket, ...errorAnswers(400, 401, 403) },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      const { file_name: fileName, size } = request.body;
      if (!isPlainFileName(fileName)) throw validationError({ file_name: 'The file name must not contain a path.' });
      if (!/\.csv$/i.test(fileName)) throw validationError({ file_name: 'Only CSV files can be uploaded.' });
      if (size > config.uploadMaxBytes) throw validationError({ size: `Max value is ${config.uploadMaxBytes}` });
      const expiresAt = Math.floor(Date.now() / 1000) + config.uploadUrlSeconds;
      const { id, storageKey } = await db.transaction(async (tx) => {
        const values: Record<string, unknown> = { ...request.body, status: 'pending', rows_total: 0, rows_accepted: 0, rows_rejected: 0 };
        const known = Object.fromEntries(Object.entries(values).filter(([name]) => uploads.entity.fields.some((field) => field.name === name)));
        const created = await table.insert(tx, known);
        // A bucket upload's key is fixed now: the presigned policy allows that key only.
        const key = bucket ? newStorageKey(created) : null;
        await tx.query(`INSERT INTO upload_files (upload_id, user_id, declared_size, expires_at, storage_key) VALUES ($1, $2, $3, to_timestamp($4), $5)`, [created, user.id, size, expiresAt, key]);
        const row = (await table.get(tx, created, null)) ?? null;
        await recordAudit(tx, actorOf(request), { module: MODULE.dataUploadLogs, recordId: created, action: 'create', changes: fieldChanges(null, row), snapshot: row });
        return { id: created, storageKey: key };
      });
      const expires = new Date(expiresAt * 1000);
      const target =
        bucket && storageKey
          ? { ...(await bucket.presignPost(storageKey, { maxBytes: Math.min(size, config.uploadMaxBytes), contentType: BUCKET_CSV_TYPE, expiresAt: expires })), completePath: `uploads/${id}/complete` }
          : { url: `${origin(app)}/api/v1/uploads/${id}/file?expires=${expiresAt}&signature=${uploadSignature(config.jwtSecret, id, expiresAt)}`, fields: {}, completePath: null };
      reply.code(201);
      return {
        data: {
          upload: await table.get(db, id, null),
          upload_url: target.url,
          fields: target.fields,
          complete_path: target.completePath,
          expires_at: expires.toISOString(),
          max_bytes: config.uploadMaxBytes,
        },
        message: target.completePath ? 'Upload the file to upload_url, then call complete_path.' : 'Upload the file to upload_url.',
      };
    },
  });

  // What the upload form shows before a file is chosen: the columns the header is checked against.
  app.get<{ Querystring: { trade_direction: string } }>('/uploads/columns', {
    config: { access: permission(MODULE.dataUploadLogs, 'add') },
    schema: {
      tags,
      operationId: 'listUploadColumns',
      summary: 'The columns a trade file must have',
      description: 'The data columns the header of a file for this trade direction is checked against, in order; `required` ones must be present, others may be.',
      querystring: uploadColumnsQuery,
      response: { 200: answers.columns, ...errorAnswers(400, 401, 403) },
    },
    handler: async (request) => ({
      data: (await configuredColumns(db, request.query.trade_direction)).map((column) => ({ name: column.name, required: column.required })),
    }),
  });

  if (bucket) await bucketCompletionRoute(app, bucket, shared);
  else await serverFileRoute(app, shared);

  app.get<{ Params: { id: number } }>('/uploads/:id/log', {
    config: { access: permission(MODULE.dataUploadLogs, 'view_detail') },
    schema: {
      tags,
      operationId: 'getUploadLog',
      summary: 'An upload\'s log',
      params: idParams,
      response: { 200: answers.log, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const upload = await table.get(db, request.params.id, null);
      if (!upload) throw notFound('Upload');
      const [file] = await db.query('SELECT stored_at, processed_at, error FROM upload_files WHERE upload_id = $1', [request.params.id]);
      const rejected = await db.query('SELECT line, reason FROM upload_rejections WHERE upload_id = $1 ORDER BY line LIMIT 10000', [request.params.id]);
      return { data: { upload: { ...upload, ...(file ?? {}) }, rejected } };
    },
  });
}

/** The data-folder way: the console posts the file to this server's signed URL, checked before it is stored. */
async function serverFileRoute(app: FastifyInstance, { table, answers, tags }: UploadRoutes): Promise<void> {
  const { db, config } = app;
  // Files arrive as multipart/form-data; the body is buffered up to the upload limit and split here.
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: config.uploadMaxBytes + MULTIPART_OVERHEAD }, (_request, body, done) => {
    done(null, body);
  });

  app.post<{ Params: { id: number }; Querystring: { expires: number; signature: string }; Body: Buffer }>('/uploads/:id/file', {
    config: { access: 'public', xsrfExempt: true, audit: { action: 'upload' } },
    bodyLimit: config.uploadMaxBytes + MULTIPART_OVERHEAD,
    schema: {
      tags,
      operationId: 'postUploadFile',
      summary: 'Post the file of an upload (the signed `upload_url`)',
      description: `The signature in the URL is the authorisation. ${FILE_CHECKS} 409 a file was already posted.`,
      params: idParams,
      querystring: uploadFileQuery,
      body: uploadFileBody,
      response: { 200: answers.received, ...errorAnswers(400, 403, 404, 409, 413, 415) },
    },
    handler: async (request) => {
      const { id } = request.params;
      const { expires, signature } = request.query;
      if (!isValidUploadSignature(config.jwtSecret, id, expires, signature)) throw new HttpError(403, 'This upload link is not valid.');
      if (expires * 1000 <= Date.now()) throw new HttpError(403, 'This upload link has expired. Start the upload again.');
      const pending = await pendingFile(db, id);
      const upload = await table.get(db, id, null);
      if (!pending || !upload) throw notFound('Upload');
      if (pending.stored_at) throw new HttpError(409, 'A file was already uploaded with this link.');

      const file = fileOf(request);
      if (!isPlainFileName(file.filename)) throw validationError({ file: 'The file name must not contain a path.' });
      if (!/\.csv$/i.test(file.filename) || (file.contentType !== null && !CSV_TYPES.has(file.contentType))) {
        throw new HttpError(415, 'Only CSV files can be uploaded.');
      }
      checkSize(file.data.length, pending.declared_size, config.uploadMaxBytes);
      await checkContent(db, file.data, upload);

      // Stored under a new random name before it is claimed, so a claimed upload always has its file.
      const storageKey = newStorageKey(id);
      await app.storage.put(storageKey, file.data);
      const checked = { sha256: contentHash(file.data), size: file.data.length };
      const claimed = await db
        .transaction(async (tx) => {
          if (!(await claimCheckedFile(tx, table.resource, upload, { ...checked, storageKey }, file.confirmDuplicate))) return false;
          await setUploadState(tx, id, { status: 'processing' });
          await recordFileOutcome(tx, request, id, pending.user_id, { accepted: true, ...checked });
          return true;
        })
        .catch(async (error: unknown) => {
          await app.storage.remove(storageKey);
          throw error;
        });
      if (!claimed) {
        await app.storage.remove(storageKey);
        throw new HttpError(409, 'A file was already uploaded with this link.');
      }
      app.uploads.enqueue(id);
      return { data: await table.get(db, id, null), message: 'The file was received and is being processed.' };
    },
  });
}

/**
 * The bucket way: the browser has posted the file to the bucket under the presigned policy; the server checks
 * it there as it checks a file posted to it (a bucket may enforce less of the policy than S3 does), removes a
 * refused one and marks the upload failed, or queues it for processing.
 */
async function bucketCompletionRoute(app: FastifyInstance, bucket: DirectUploadStorage, { table, answers, tags }: UploadRoutes): Promise<void> {
  const { db, config } = app;
  app.post<{ Params: { id: number }; Body: { confirm_duplicate?: boolean } | undefined }>('/uploads/:id/complete', {
    config: { access: permission(MODULE.dataUploadLogs, 'add'), audit: { action: 'upload' } },
    schema: {
      tags,
      operationId: 'completeUpload',
      summary: 'Complete an upload posted to the bucket (`complete_path`)',
      description: `The server checks the file in the bucket; a refused one is deleted and the upload failed. 400 (\`errors.file\`) when no file has arrived yet. ${FILE_CHECKS} 409 already completed.`,
      params: idParams,
      body: uploadCompleteBody,
      response: { 200: answers.received, ...errorAnswers(400, 401, 403, 404, 409, 413, 415) },
    },
    handler: async (request) => {
      const { id } = request.params;
      const pending = await pendingFile(db, id);
      const upload = await table.get(db, id, null);
      if (!pending?.storage_key || !upload) throw notFound('Upload');
      if (pending.stored_at || pending.processed_at) throw new HttpError(409, 'This upload was already completed.');
      const key = pending.storage_key;
      const object = await bucket.stat(key);
      if (!object) throw validationError({ file: 'No file has arrived in storage for this upload yet.' });

      let data: Buffer;
      try {
        if (object.lastModified && object.lastModified.getTime() > Date.parse(pending.expires_at) + BUCKET_CLOCK_SKEW_MS) {
          throw new HttpError(403, 'The file arrived after the upload link expired. Start the upload again.');
        }
        if (object.contentType?.split(';')[0]?.trim().toLowerCase() !== BUCKET_CSV_TYPE) throw new HttpError(415, 'Only CSV files can be uploaded.');
        checkSize(object.size, pending.declared_size, config.uploadMaxBytes);
        data = await bucket.get(key);
        checkSize(data.length, pending.declared_size, config.uploadMaxBytes);
        await checkContent(db, data, upload);
      } catch (error) {
        if (error instanceof HttpError) await refuse(app, request, id, key, error.errors?.file ?? error.message);
        throw error;
      }

      // The accepted upload is pinned to the bytes just checked by their SHA-256, which the processor compares with
      // the bytes it imports: the presigned POST stays usable until it expires, so the object may be replaced after
      // this check. Not a copy to a key the policy cannot write (CopyObject) instead: the data folder needs the hash
      // anyway (one mechanism for both storages, which also catches any other writer of the bucket), and beside it a
      // copy would only add a second object to keep and remove. Not the ETag: the processor reads the whole object to
      // import it, so a HEAD first would save a download only when the file was replaced, and an ETag is no content
      // hash (multipart uploads, SSE-KMS) that the data folder could share.
      const sha256 = contentHash(data);
      const confirmed = request.body?.confirm_duplicate === true;
      const claimed = await db.transaction(async (tx) => {
        if (!(await claimCheckedFile(tx, table.resource, upload, { sha256, size: data.length }, confirmed))) return false;
        await setUploadState(tx, id, { status: 'processing' });
        await recordFileOutcome(tx, request, id, pending.user_id, { accepted: true, size: data.length, sha256 });
        return true;
      });
      if (!claimed) throw new HttpError(409, 'This upload was already completed.');
      app.uploads.enqueue(id);
      return { data: await table.get(db, id, null), message: 'The file was received and is being processed.' };
    },
  });
}

/**
 * Where the signed URL points: PUBLIC_URL when configured, else nothing, so the URL stays relative to the page that
 * asked for it. Never the request's Host header, which the caller chooses.
 */
function origin(app: FastifyInstance): string {
  return (app.config.publicUrl ?? '').replace(/\/$/, '');
}
