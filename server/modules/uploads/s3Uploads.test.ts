import type { Readable } from 'node:stream';
import {
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import type { S3Config } from '../../config.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { STALLED_ERROR, endAbandonedUploads } from './abandonedUploads.ts';
import { MISSING_FILE_ERROR } from './importErrors.ts';
import { CHANGED_FILE_ERROR } from './tradeFile.ts';
import { setUploadState } from './uploadState.ts';
import { S3BucketStorage } from './s3Storage.ts';
import { contentHash } from './storage.ts';
import { s3ServerUnavailable, startS3Server, type S3TestServer } from './testing/s3Server.ts';
import { TRADE_CSV_WITH_REJECTS, nextPeriod } from './testing/tradeCsv.ts';
import { tusRequests, type UploadTicket } from './testing/tusRequests.ts';
import { publishEveryImport } from './testing/reviewSettings.ts';

const databases = await testDatabases();
const s3Unavailable = s3ServerUnavailable();
if (s3Unavailable) console.warn(`S3 upload tests SKIPPED: ${s3Unavailable}.`);

const CSV = TRADE_CSV_WITH_REJECTS;

/** The bucket storage with a hook run before each read, to act between the check at completion and the processor's read. */
class HookedBucketStorage extends S3BucketStorage {
  beforeGet: ((key: string) => Promise<void>) | null = null;

  override async get(key: string): Promise<Buffer> {
    await this.beforeGet?.(key);
    return super.get(key);
  }

  override async read(key: string): Promise<Readable> {
    await this.beforeGet?.(key);
    return super.read(key);
  }
}

let s3: S3TestServer | undefined;
beforeAll(async () => {
  if (!s3Unavailable) s3 = await startS3Server();
});
afterAll(async () => s3?.close());

describe.each(databases)('uploads kept in an S3-compatible bucket (moto_server) on $kind', ({ kind, skip }) => {
  const skipped = skip ?? s3Unavailable;
  let server: TestServer;
  let app: FastifyInstance;
  let bucket: S3Config;
  let storage: HookedBucketStorage;
  let admin: Record<string, string>;
  let countryId: number;

  const call = async (method: 'GET' | 'POST', url: string, payload?: object, headers = admin) => {
    const response = await app.inject({
      method,
      url: `/api/v1/${url}`,
      headers,
      ...(payload === undefined ? {} : { payload }),
    });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: response.json() as {
        data: Record<string, unknown>;
        errors?: Record<string, string>;
        meta?: { total: number };
      },
    };
  };
  const announce = async (fileName: string, size: number, period = nextPeriod()) => {
    const response = await call('POST', 'uploads', {
      country_id: countryId,
      trade_direction: 'export',
      period,
      file_name: fileName,
      size,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.data as unknown as UploadTicket;
  };
  /** What the console does: the file in chunks (tus) to the signed URL, through the server into the bucket. */
  const postToBucket = async (ticket: UploadTicket, content: string) =>
    tusRequests(app).sendFile(ticket, Buffer.from(content), 2);
  const keyOf = async (uploadId: number) =>
    (
      await server.db.query<{ storage_key: string }>('SELECT storage_key FROM upload_files WHERE upload_id = $1', [
        uploadId,
      ])
    )[0]!.storage_key;
  const complete = (ticket: UploadTicket, headers = admin, body: object = {}) =>
    call('POST', ticket.complete_path ?? `uploads/${ticket.upload.id}/complete`, body, headers);
  const log = async (uploadId: number) =>
    (await call('GET', `uploads/${uploadId}/log`)).body.data as unknown as {
      upload: Record<string, unknown>;
      rejected: Array<{ line: number }>;
    };
  const stored = async (key: string) => {
    try {
      await s3!.client.send(new HeadObjectCommand({ Bucket: bucket.bucket, Key: key }));
      return true;
    } catch {
      return false;
    }
  };
  const keys = async () =>
    ((await s3!.client.send(new ListObjectsV2Command({ Bucket: bucket.bucket }))).Contents ?? []).map(
      (object) => object.Key,
    );
  const checkedHash = async (uploadId: number) =>
    (
      await server.db.query<{ stored_sha256: string | null }>(
        'SELECT stored_sha256 FROM upload_files WHERE upload_id = $1',
        [uploadId],
      )
    )[0]?.stored_sha256;
  const tradeRecords = async (uploadId: number) =>
    (
      await server.db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM trade_records WHERE upload_id = $1',
        [uploadId],
      )
    )[0]!.count;

  beforeAll(async () => {
    if (skipped) return;
    server = await startTestServer(kind);
    await publishEveryImport(server.db);
    bucket = await s3!.createBucket();
    storage = new HookedBucketStorage(bucket);
    app = await buildApp({ config: server.config, db: server.db, storage });
    await app.ready();
    admin = await server.auth('Super Admin');
    countryId = (
      await call('POST', 'countries', { name: 'India', iso2: 'IN', iso3: 'IND', region: 'asia', currency_code: 'INR' })
    ).body.data.id as number;
  });
  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it.skipIf(skipped)(
    'a valid file: the bucket takes it, complete checks it, and its rows become trade records; complete again is 409',
    async () => {
      const ticket = await announce('exports.csv', CSV.length);
      await postToBucket(ticket, CSV);
      const completed = await complete(ticket);
      expect(completed.status, JSON.stringify(completed.body)).toBe(200);
      expect(completed.body.data).toMatchObject({ id: ticket.upload.id, status: 'processing' });
      await app.uploads.idle();
      const done = await log(ticket.upload.id);
      expect(done.upload).toMatchObject({
        status: 'published',
        rows_total: 4,
        rows_accepted: 2,
        rows_rejected: 2,
        error: null,
      });
      expect(done.rejected.map((line) => line.line)).toEqual([3, 4]);
      expect(await checkedHash(ticket.upload.id)).toBe(contentHash(Buffer.from(CSV)));
      expect(await tradeRecords(ticket.upload.id)).toBe(2);
      const report = await call('GET', 'uploaded-data-report?q=pepper');
      expect(report.body.meta?.total).toBe(1);
      const unread = await call('GET', 'notification?is_read=false&_page=1&_page_size=8');
      expect(JSON.stringify(unread.body.data)).toContain('exports.csv');

      expect((await complete(ticket)).status).toBe(409);
      await app.uploads.idle();
      expect(await tradeRecords(ticket.upload.id)).toBe(2);
      expect(await stored(await keyOf(ticket.upload.id))).toBe(true);
      // Each step of the upload is in the audit log, as the uploader: started, file accepted, imported.
      const entries = await server.db.query(
        'SELECT user_id, action, details FROM audit_log WHERE module = $1 AND record_id = $2 ORDER BY id',
        ['DATA_UPLOAD_LOGS', ticket.upload.id],
      );
      const uploaderId = server.userIds.get('admin@example.com');
      expect(entries).toEqual([
        { user_id: uploaderId, action: 'create', details: {} },
        {
          user_id: uploaderId,
          action: 'upload',
          details: { accepted: true, size: CSV.length, sha256: contentHash(Buffer.from(CSV)) },
        },
        {
          user_id: uploaderId,
          action: 'import',
          details: { status: 'published', rows_total: 4, rows_accepted: 2, rows_rejected: 2 },
        },
      ]);
    },
  );

  it.skipIf(skipped)(
    'complete needs DATA_UPLOAD_LOGS add (403 without), the uploader (403 another user), a known upload (404) and the file in the bucket (400 before it arrived)',
    async () => {
      const ticket = await announce('exports.csv', CSV.length);
      expect((await complete(ticket)).status).toBe(400);
      await postToBucket(ticket, CSV);
      const viewer = await server.auth('Read Only');
      expect((await complete(ticket, viewer)).status).toBe(403);
      expect((await call('POST', 'uploads/999999/complete', {})).status).toBe(404);
      expect((await log(ticket.upload.id)).upload).toMatchObject({ status: 'pending', stored_at: null });
      // Another user's upload is not theirs to complete, whatever their grants; the uploader's is.
      expect((await complete(ticket, await server.auth('Data Operator'))).status).toBe(403);
      expect((await complete(ticket)).status).toBe(200);
      await app.uploads.idle();
      expect((await log(ticket.upload.id)).upload).toMatchObject({ status: 'published' });
    },
  );

  it.skipIf(skipped)(
    'a same-size file written over the accepted one by another writer of the bucket is not imported: the upload fails',
    async () => {
      const replacement = CSV.replace('Black pepper,100', 'Black pepper,999');
      expect(replacement).toHaveLength(CSV.length);
      const ticket = await announce('exports.csv', CSV.length);
      await postToBucket(ticket, CSV);
      // Between the check at completion and the processor's read, another writer replaces the object with a file that
      // would pass every check itself.
      const reads: string[] = [];
      storage.beforeGet = async (key) => {
        reads.push(key);
        await s3!.client.send(new PutObjectCommand({ Bucket: bucket.bucket, Key: key, Body: replacement }));
      };
      try {
        const completed = await complete(ticket);
        expect(completed.status, JSON.stringify(completed.body)).toBe(200);
        await app.uploads.idle();
      } finally {
        storage.beforeGet = null;
      }
      expect(reads).toHaveLength(1);
      // The bucket holds the replacement, the database what was checked.
      expect((await storage.get(reads[0]!)).toString()).toBe(replacement);
      expect(await checkedHash(ticket.upload.id)).toBe(contentHash(Buffer.from(CSV)));
      expect((await log(ticket.upload.id)).upload).toMatchObject({
        status: 'failed',
        error: CHANGED_FILE_ERROR,
        processed_at: expect.any(String),
      });
      expect(await tradeRecords(ticket.upload.id)).toBe(0);
      const unread = await call('GET', 'notification?is_read=false&_page=1&_page_size=50');
      expect(JSON.stringify(unread.body.data)).toContain('exports.csv</b> failed');
      expect((await complete(ticket)).status).toBe(409);
    },
  );

  it.skipIf(skipped)(
    'an upload whose file did not arrive before its link expired has its multipart upload aborted and its objects removed',
    async () => {
      const ticket = await announce('slow.csv', CSV.length);
      const created = await tusRequests(app).create(ticket.upload_url, CSV.length);
      expect(
        (await tusRequests(app).patch(String(created.headers.location), 0, Buffer.from(CSV.slice(0, 40)))).status,
      ).toBe(204);
      const key = await keyOf(ticket.upload.id);
      const openUploads = async () =>
        ((await s3!.client.send(new ListMultipartUploadsCommand({ Bucket: bucket.bucket }))).Uploads ?? []).filter(
          (upload) => upload.Key === key,
        );
      expect(await openUploads()).toHaveLength(1);
      expect((await keys()).filter((name) => name?.startsWith(key))).not.toEqual([]);
      await server.db.query("UPDATE upload_files SET expires_at = now() - interval '1 second' WHERE upload_id = $1", [
        ticket.upload.id,
      ]);

      expect(await endAbandonedUploads(app)).toEqual([ticket.upload.id]);
      expect((await log(ticket.upload.id)).upload).toMatchObject({ status: 'abandoned', error: STALLED_ERROR });
      expect(await openUploads()).toEqual([]);
      expect((await keys()).filter((name) => name?.startsWith(key))).toEqual([]);
    },
  );

  it.skipIf(skipped)('the bucket answers readiness (HeadBucket); a bucket that does not exist does not', async () => {
    await expect(storage.ready()).resolves.toBeUndefined();
    await expect(new S3BucketStorage({ ...bucket, bucket: `${bucket.bucket}-missing` }).ready()).rejects.toThrow();
  });

  it.skipIf(skipped)(
    'at start, uploads left processing are processed again from the bucket, or failed when their file is gone',
    async () => {
      const crashed = await announce('exports.csv', CSV.length);
      const gone = await announce('gone.csv', CSV.length);
      // The state a crash mid-import leaves: accepted and stored, marked processing, the import rolled back.
      const crashedKey = `uploads/${crashed.upload.id}-0123456789abcdef.csv`;
      await s3!.client.send(
        new PutObjectCommand({ Bucket: bucket.bucket, Key: crashedKey, Body: CSV, ContentType: 'text/csv' }),
      );
      for (const ticket of [crashed, gone]) {
        await server.db.query(
          'UPDATE upload_files SET stored_at = now(), storage_key = $4, stored_size = $2, stored_sha256 = $3 WHERE upload_id = $1',
          [
            ticket.upload.id,
            CSV.length,
            contentHash(Buffer.from(CSV)),
            `uploads/${ticket.upload.id}-0123456789abcdef.csv`,
          ],
        );
        await setUploadState(server.app, server.db, ticket.upload.id, { status: 'processing' });
      }
      const restarted = await buildApp({ config: server.config, db: server.db, storage: new S3BucketStorage(bucket) });
      try {
        await restarted.ready();
        await restarted.uploads.idle();
      } finally {
        await restarted.close();
      }
      expect((await log(crashed.upload.id)).upload).toMatchObject({
        status: 'published',
        rows_accepted: 2,
        rows_rejected: 2,
      });
      expect(await tradeRecords(crashed.upload.id)).toBe(2);
      expect((await log(gone.upload.id)).upload).toMatchObject({ status: 'failed', error: MISSING_FILE_ERROR });
      expect(await keys()).toContain(crashedKey);
    },
  );
});
