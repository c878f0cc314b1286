import { Server as TusServer } from '@tus/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { idParams } from '../../http/requestSchemas.ts';
import { errorAnswers } from '../../http/answers.ts';
import { HttpError, notFound, validationError } from '../../http/errors.ts';
import { UploadFileLocker } from './fileLocks.ts';
import { ReceivedHashes } from './receivedHash.ts';
import { uploadFileQuery } from './schemas.ts';
import type { ResourceTable } from '../resources/sql.ts';
import { isValidUploadSignature, signedFileUrl } from './signing.ts';
import type { ResumableStore } from './storage.ts';
import { pendingFile, recordReceivedHash, storageKeyFor } from './uploadFiles.ts';

/** Where the tus server believes it is mounted; requests reach it only through the route below, rewritten to it. */
const TUS_PATH = '/tus';
const OFFSET_STREAM = 'application/offset+octet-stream';

/** The file of an upload, received in chunks: the tus server over the storage's resumable store, hashing as it writes. */
export class ResumableFiles {
  readonly store: ResumableStore;
  readonly tus: TusServer;
  private readonly hashes: ReceivedHashes;

  constructor(app: FastifyInstance) {
    this.store = app.storage.resumableStore();
    this.hashes = new ReceivedHashes(this.store);
    this.tus = new TusServer({
      path: TUS_PATH,
      datastore: this.hashes.hashingStore(),
      // One request at a time per file across instances, not only within this process (tus's default).
      locker: new UploadFileLocker(app.db),
      maxSize: app.config.uploadMaxBytes,
      // The same origin's console is the only client; the route already answered anything not meant for tus.
      allowedOrigins: [],
      namingFunction: (request) => internalParam(request.url, 'key'),
      getFileIdFromRequest: (request) => {
        const match = /^\/tus\/([^/]+)$/.exec(new URL(request.url).pathname);
        return match?.[1] ? decodeURIComponent(match[1]) : undefined;
      },
      // The URL the client resumes at: the signed one it came by, whatever instance answers.
      generateUrl: (request) => internalParam(request.url, 'public'),
      onUploadFinish: async (_request, upload) => {
        const sha256 = await this.hashes.complete(upload.id, upload.size ?? 0);
        await recordReceivedHash(app.db, upload.id, sha256);
        return {};
      },
    });
  }

  /** How far the file of `key` has arrived, or null when no chunk of it was ever received. */
  async received(key: string): Promise<{ offset: number; size: number } | null> {
    try {
      const upload = await this.store.getUpload(key);
      return { offset: upload.offset, size: upload.size ?? 0 };
    } catch (error) {
      // tus's FILE_NOT_FOUND (404) and FILE_NO_LONGER_EXISTS (410); anything else is a failure of the storage.
      const status = (error as { status_code?: unknown } | null)?.status_code;
      if (status === 404 || status === 410) return null;
      throw error;
    }
  }
}

/**
 * The file of an upload, sent in chunks by the tus protocol 1.0 (creation, creation-with-upload) to the signed URL
 * `POST uploads` handed out: POST creates it with `Upload-Length` equal to the announced size, HEAD tells how much
 * arrived, PATCH sends the next chunk from there. The signature and expiry in the URL are the authorisation (as for the
 * link to the whole file before), checked here on every request before the tus server sees it.
 */
export async function resumableFileRoute(
  app: FastifyInstance,
  files: () => ResumableFiles,
  { table, tags }: { table: ResourceTable; tags: string[] },
): Promise<void> {
  const { db, config } = app;
  // The chunk is read by the tus server, as a stream: Fastify leaves the body alone.
  app.addContentTypeParser(OFFSET_STREAM, (_request, _payload, done) => done(null));

  const handler = async (
    request: FastifyRequest<{ Params: { id: number }; Querystring: { expires: number; signature: string } }>,
    reply: FastifyReply,
  ) => {
    const { id } = request.params;
    const { expires, signature } = request.query;
    if (!isValidUploadSignature(config.jwtSecret, id, expires, signature))
      throw new HttpError(403, 'This upload link is not valid.');
    if (expires * 1000 <= Date.now()) throw new HttpError(403, 'This upload link has expired. Start the upload again.');
    const pending = await pendingFile(db, id);
    if (!pending) throw notFound('Upload');
    if (pending.stored_at || pending.processed_at) throw new HttpError(409, 'This upload was already completed.');
    const resumable = files();
    let key = pending.storage_key;
    if (request.method === 'POST') {
      checkAnnouncedLength(request, pending.declared_size);
      key = await storageKeyFor(db, id, String((await table.get(db, id, null))?.file_name ?? ''));
      if (await resumable.received(key))
        throw new HttpError(409, 'The file of this upload was already started: resume it at its URL.');
    } else if (!key || !(await resumable.received(key))) {
      throw notFound('File of this upload');
    }
    const publicUrl = signedFileUrl(config, id, expires);
    const target = request.method === 'POST' ? TUS_PATH : `${TUS_PATH}/${encodeURIComponent(key)}`;
    request.raw.url = `${target}?${new URLSearchParams({ key, public: publicUrl })}`;
    reply.raw.setHeader('cache-control', 'no-store');
    reply.hijack();
    await resumable.tus.handle(request.raw, reply.raw);
  };

  const offset = {
    'Upload-Offset': {
      description: 'How many bytes of the file have arrived.',
      schema: { type: 'integer', minimum: 0 },
    },
  };
  const steps = [
    [
      'POST',
      'createUploadFile',
      'Start sending the file of an upload (tus creation, the signed `upload_url`)',
      '`Upload-Length` must be the announced size (413 larger, 400 otherwise; `Upload-Defer-Length` refused); 201 with `Location`, where the chunks go; 409 when the file was already started (resume it).',
      {
        201: {
          description: 'The file was started: its chunks go to `Location` (the same signed URL).',
          headers: {
            Location: { description: 'Where the chunks of the file go.', schema: { type: 'string' } },
            ...offset,
          },
        },
      },
    ],
    [
      'HEAD',
      'getUploadFileOffset',
      'How much of the file of an upload has arrived (tus `Upload-Offset`)',
      '404 before the file was started.',
      { 200: { description: 'How far the file has arrived.', headers: offset } },
    ],
    [
      'PATCH',
      'sendUploadFileChunk',
      'Send the next chunk of the file of an upload (tus, `application/offset+octet-stream`)',
      '`Upload-Offset` must be where the file ends (409 otherwise); 413 for bytes beyond the announced size.',
      { 204: { description: 'The chunk was stored: `Upload-Offset` is where the file now ends.', headers: offset } },
    ],
  ] as const;
  for (const [method, operationId, summary, description, answered] of steps) {
    app.route<{
      Params: { id: number };
      Querystring: { expires: number; signature: string };
    }>({
      method,
      url: '/uploads/:id/file',
      config: {
        access: 'public',
        xsrfExempt: true,
        ...(method === 'HEAD'
          ? {}
          : {
              audit: {
                none: 'a chunk of a file: what arrived is recorded when the upload is completed (completeUpload, upload)',
              },
            }),
      },
      schema: {
        tags,
        operationId,
        summary,
        description: `The tus resumable upload protocol 1.0; the signature in the URL is the authorisation (403 once it expired), 409 once the upload was completed. ${description}`,
        params: idParams,
        querystring: uploadFileQuery,
        response: { ...answered, ...errorAnswers(400, 403, 404, 409, 413) },
      },
      handler,
    });
  }
}

/** Upload-Length must be the size announced in `POST uploads`, which the upload limit already bounds. */
function checkAnnouncedLength(request: FastifyRequest, declared: number): void {
  if (request.headers['upload-defer-length'] !== undefined)
    throw validationError({
      'Upload-Length': `Give the file's length: ${declared} bytes, as announced.`,
    });
  const length = Number(request.headers['upload-length']);
  if (!Number.isSafeInteger(length) || length < 0) throw validationError({ 'Upload-Length': 'This field is required' });
  if (length > declared)
    throw new HttpError(413, `The file is larger than the ${declared} bytes announced for this upload.`);
  if (length !== declared)
    throw validationError({
      'Upload-Length': `Must be the ${declared} bytes announced for this upload.`,
    });
}

function internalParam(url: string, name: string): string {
  const value = new URL(url).searchParams.get(name);
  if (value === null) throw new Error(`The tus request lacks its ${name}.`);
  return value;
}
