import type { FastifyInstance } from 'fastify';
import { idParams, writeSchema } from '../../http/requestSchemas.ts';
import { currentUser, permission } from '../auth/access.ts';
import { errorAnswers } from '../../http/answers.ts';
import { HttpError, forbidden, notFound, validationError } from '../../http/errors.ts';
import { MODULE, entityResource } from '../../registry.ts';
import { recordSchema } from '../resources/answers.ts';
import { ResourceTable } from '../resources/sql.ts';
import { uploader } from './audit.ts';
import { writeAsCaller } from '../resources/writeAsCaller.ts';
import { addUploadFile, pendingFile, refuse } from './uploadFiles.ts';
import { configuredColumns } from './columns.ts';
import { claimCheckedFile } from './duplicates.ts';
import { BEGINNING_BYTES, checkBeginning, checkSize, isPlainFileName, isTradeFileName } from './fileChecks.ts';
import { hashStored } from './receivedHash.ts';
import { ResumableFiles, resumableFileRoute } from './resumableFile.ts';
import { setUploadState } from './uploadState.ts';
import { FILE_CHECKS, uploadAnswers, uploadColumnsQuery, uploadCompleteBody } from './schemas.ts';
import { signedFileUrl } from './signing.ts';
import { readBeginning } from './storage.ts';

interface UploadRequestBody {
  country_id: number;
  trade_direction: string;
  period: string;
  file_name: string;
  size: number;
}

/** What the upload routes share: the uploads' table, their answers, their tag and the resumable files. */
interface UploadRoutes {
  table: ResourceTable;
  answers: ReturnType<typeof uploadAnswers>;
  tags: string[];
  files: () => ResumableFiles;
}

/**
 * Data upload (docs/api.md): a signed, expiring, size-limited URL on this server; the file sent to it in chunks by the
 * tus protocol, into the data folder or the bucket, resumable after a break; `complete`, which checks it and queues it
 * for processing. Its log, progress, cancel and replace are the import's routes (importRoutes.ts).
 */
export async function uploadRoutes(app: FastifyInstance): Promise<void> {
  const uploads = entityResource(MODULE.dataUploadLogs);
  if (!uploads) return;
  const { db, config } = app;
  const table = new ResourceTable(uploads);
  let files: ResumableFiles | null = null;
  // Made on first use: the storage's resumable store may create its folder, which readiness checks first.
  const shared: UploadRoutes = {
    table,
    answers: uploadAnswers(recordSchema(uploads)),
    tags: [uploads.label],
    files: () => (files ??= new ResumableFiles(app)),
  };
  const { answers, tags } = shared;

  app.post<{ Body: UploadRequestBody }>('/uploads', {
    config: { access: permission(MODULE.dataUploadLogs, 'add'), audit: { action: 'create' } },
    schema: {
      tags,
      operationId: 'startUpload',
      summary: 'Start a trade-data upload',
      description:
        'Answers where to send the file: to `upload_url` by the tus protocol 1.0, in chunks, resumable (`Upload-Length` = `size`); then POST `complete_path`.',
      body: writeSchema(uploads.entity.createSchema),
      response: { 201: answers.ticket, ...errorAnswers(400, 401, 403) },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      const { file_name: fileName, size } = request.body;
      if (!isPlainFileName(fileName)) throw validationError({ file_name: 'The file name must not contain a path.' });
      if (!isTradeFileName(fileName))
        throw validationError({ file_name: 'Only CSV files (.csv, or .csv.gz compressed with gzip) can be uploaded.' });
      if (size > config.uploadMaxBytes) throw validationError({ size: `Max value is ${config.uploadMaxBytes}` });
      const expiresAt = Math.floor(Date.now() / 1000) + config.uploadUrlSeconds;
      // The upload's record goes through the record operations (its behaviour starts it as pending); its file's row beside it.
      // The file's key is fixed when its first chunk's upload is created (storageKeyFor), with the extension of its name.
      const id = await writeAsCaller(app, request, async (context) => {
        const created = await app.records
          .named(MODULE.dataUploadLogs)
          .create(context, request.body as unknown as Record<string, unknown>);
        await addUploadFile(context.tx, { uploadId: created, userId: user.id, declaredSize: size, expiresAt });
        return created;
      });
      reply.code(201);
      return {
        data: {
          upload: await table.get(db, id, null),
          upload_url: signedFileUrl(config, id, expiresAt),
          complete_path: `uploads/${id}/complete`,
          expires_at: new Date(expiresAt * 1000).toISOString(),
          max_bytes: config.uploadMaxBytes,
        },
        message: 'Send the file to upload_url (tus), then call complete_path.',
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
      description:
        'The data columns the header of a file for this trade direction is checked against, in order; `required` ones must be present, others may be; `type` says the format of their values (docs/api.md, "What a trade file holds").',
      querystring: uploadColumnsQuery,
      response: { 200: answers.columns, ...errorAnswers(400, 401, 403) },
    },
    handler: async (request) => ({
      data: (await configuredColumns(db, request.query.trade_direction)).map(({ name, type, required }) => ({
        name,
        type,
        required,
      })),
    }),
  });

  await resumableFileRoute(app, shared.files, shared);
  await completionRoute(app, shared);
}

/**
 * The file has arrived (its last chunk stored): the server checks it from its beginning, refuses it (the file removed,
 * the upload failed with the reason in its log), asks about a duplicate, or accepts it and queues it for processing.
 */
async function completionRoute(app: FastifyInstance, { table, answers, tags, files }: UploadRoutes): Promise<void> {
  const { db, config } = app;
  app.post<{
    Params: { id: number };
    Body: { confirm_duplicate?: boolean; add_to_published?: boolean; replace_published?: boolean } | undefined;
  }>('/uploads/:id/complete', {
    config: { access: permission(MODULE.dataUploadLogs, 'add'), audit: { action: 'upload' } },
    schema: {
      tags,
      operationId: 'completeUpload',
      summary: 'Complete an upload whose file has arrived (`complete_path`)',
      description: `Only the uploader. The server checks the file in storage (its beginning: the header; the rows are checked when it is processed); a refused one is deleted and the upload failed. 400 (\`errors.file\`) when the file has not fully arrived yet. ${FILE_CHECKS} 409 already completed.`,
      params: idParams,
      body: uploadCompleteBody,
      response: { 200: answers.received, ...errorAnswers(400, 401, 403, 404, 409, 413, 415) },
    },
    handler: async (request) => {
      const { id } = request.params;
      const pending = await pendingFile(db, id);
      const upload = await table.get(db, id, null);
      if (!pending || !upload) throw notFound('Upload');
      // The file is the uploader's to complete, as the upload's replace is: another user's is refused whatever their grants.
      if (pending.user_id !== currentUser(request).id)
        throw forbidden(MODULE.dataUploadLogs, 'complete an upload of another user');
      if (pending.stored_at || pending.processed_at) throw new HttpError(409, 'This upload was already completed.');
      const resumable = files();
      const key = pending.storage_key;
      const arrived = key ? await resumable.received(key) : null;
      if (!key || !arrived) throw validationError({ file: 'No file has arrived in storage for this upload yet.' });
      if (arrived.offset < arrived.size)
        throw validationError({
          file: `The file has not fully arrived yet: ${arrived.offset} of ${arrived.size} bytes.`,
        });

      try {
        checkSize(arrived.size, pending.declared_size, config.uploadMaxBytes);
        const beginning = await readBeginning(resumable.store, key, BEGINNING_BYTES);
        await checkBeginning(db, beginning, arrived.size <= beginning.length, upload);
      } catch (error) {
        if (error instanceof HttpError) await refuse(app, request, id, key, error.errors?.file ?? error.message);
        throw error;
      }

      // The accepted upload is pinned to the received bytes by their SHA-256 (hashed as they arrived), which the
      // processor compares with the bytes it imports: any other writer of the storage is caught there.
      const sha256 = pending.received_sha256 ?? (await hashStored(resumable.store, key));
      const checked = { sha256, size: arrived.size };
      const answers = {
        confirmDuplicate: request.body?.confirm_duplicate === true,
        addToPublished: request.body?.add_to_published === true,
        replacePublished: request.body?.replace_published === true,
      };
      const claimed = await db.transaction(async (tx) => {
        if (!(await claimCheckedFile(tx, table.resource, upload, checked, answers))) return false;
        const actor = await uploader(tx, pending.user_id, request);
        const replacing = answers.replacePublished ? { replaces_published: true } : {};
        await setUploadState(
          app,
          tx,
          id,
          { status: 'processing' },
          { actor, action: 'upload', details: { accepted: true, ...checked, ...replacing } },
        );
        return true;
      });
      if (!claimed) throw new HttpError(409, 'This upload was already completed.');
      app.uploads.enqueue(id);
      return { data: await table.get(db, id, null), message: 'The file was received and is being processed.' };
    },
  });
}
