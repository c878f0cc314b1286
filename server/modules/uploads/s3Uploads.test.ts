import { HeadObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import type { S3Config } from '../../config.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { CHANGED_FILE_ERROR, MISSING_FILE_ERROR, setUploadState } from './processor.ts';
import { S3BucketStorage } from './s3Storage.ts';
import { contentHash } from './storage.ts';
import { s3ServerUnavailable, startS3Server, type S3TestServer } from './testing/s3Server.ts';
import { TRADE_CSV_WITH_REJECTS, nextPeriod } from './testing/tradeCsv.ts';

const databases = await testDatabases();
const s3Unavailable = s3ServerUnavailable();
if (s3Unavailable) console.warn(`S3 upload tests SKIPPED: ${s3Unavailable}.`);

const CSV = TRADE_CSV_WITH_REJECTS;

interface Ticket {
  upload: { id: number };
  upload_url: string;
  fields: Record<string, string>;
  complete_path: string | null;
  expires_at: string;
  max_bytes: number;
}

/** The bucket storage with a hook run before each read, to act between the check at completion and the processor's read. */
class HookedBucketStorage extends S3BucketStorage {
  beforeGet: ((key: string) => Promise<void>) | null = null;

  override async get(key: string): Promise<Buffer> {
    await this.beforeGet?.(key);
    return super.get(key);
  }
}

let s3: S3TestServer | undefined;
beforeAll(async () => {
  if (!s3Unavailable) s3 = await startS3Server();
});
afterAll(async () => s3?.close());

describe.each(databases)('uploads to an S3-compatible bucket (moto_server) on $kind', ({ kind, skip }) => {
  const skipped = skip ?? s3Unavailable;
  let server: TestServer;
  let app: FastifyInstance;
  let bucket: S3Config;
  let storage: HookedBucketStorage;
  let admin: Record<string, string>;
  let countryId: number;

  const call = async (method: 'GET' | 'POST', url: string, payload?: object, headers = admin) => {
    const response = await app.inject({ method, url: `/api/v1/${url}`, headers, ...(payload === undefined ? {} : { payload }) });
    return { status: response.statusCode, headers: response.headers, body: response.json() as { data: Record<string, unknown>; errors?: Record<string, string>; meta?: { total: number } } };
  };
  const announce = async (fileName: string, size: number, period = nextPeriod()) => {
    const response = await call('POST', 'uploads', { country_id: countryId, trade_direction: 'export', period, file_name: fileName, size });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.data as unknown as Ticket;
  };
  /** What the console does: the signed fields, then the file last, as multipart form data. */
  const postToBucket = async (ticket: Ticket, content: string, change: (fields: Record<string, string>) => Record<string, string> = (fields) => fields) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(change({ ...ticket.fields }))) form.append(name, value);
    form.append('file', new Blob([content], { type: 'text/csv' }), 'exports.csv');
    const response = await fetch(ticket.upload_url, { method: 'POST', body: form });
    return { status: response.status, body: await response.text() };
  };
  const complete = (ticket: Ticket, headers = admin, body: object = {}) => call('POST', ticket.complete_path ?? `uploads/${ticket.upload.id}/complete`, body, headers);
  const log = async (uploadId: number) => (await call('GET', `uploads/${uploadId}/log`)).body.data as unknown as { upload: Record<string, unknown>; rejected: Array<{ line: number }> };
  const stored = async (key: string) => {
    try {
      await s3!.client.send(new HeadObjectCommand({ Bucket: bucket.bucket, Key: key }));
      return true;
    } catch {
      return false;
    }
  };
  const keys = async () => ((await s3!.client.send(new ListObjectsV2Command({ Bucket: bucket.bucket }))).Contents ?? []).map((object) => object.Key);
  const checkedHash = async (uploadId: number) => (await server.db.query<{ stored_sha256: string | null }>('SELECT stored_sha256 FROM upload_files WHERE upload_id = $1', [uploadId]))[0]?.stored_sha256;
  const tradeRecords = async (uploadId: number) => (await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM trade_records WHERE upload_id = $1', [uploadId]))[0]!.count;

  beforeAll(async () => {
    if (skipped) return;
    server = await startTestServer(kind);
    bucket = await s3!.createBucket();
    storage = new HookedBucketStorage(bucket);
    app = await buildApp({ config: server.config, db: server.db, storage });
    await app.ready();
    admin = await server.auth('Super Admin');
    countryId = (await call('POST', 'countries', { name: 'India', iso2: 'IN', iso3: 'IND', region: 'asia', currency_code: 'INR' })).body.data.id as number;
  });
  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it.skipIf(skipped)('POST uploads gives a presigned POST whose policy pins the key, the size, the type and the expiry', async () => {
    const ticket = await announce('exports.csv', CSV.length);
    expect(ticket.upload_url).toBe(`${s3!.endpoint}/${bucket.bucket}`);
    expect(ticket.complete_path).toBe(`uploads/${ticket.upload.id}/complete`);
    expect(ticket.fields.key).toMatch(new RegExp(`^uploads/${ticket.upload.id}-[0-9a-f]{16}\\.csv$`));
    expect(ticket.fields['Content-Type']).toBe('text/csv');
    expect(Object.keys(ticket.fields)).toEqual(expect.arrayContaining(['Policy', 'X-Amz-Signature', 'X-Amz-Credential', 'X-Amz-Algorithm', 'X-Amz-Date']));
    const policy = JSON.parse(Buffer.from(ticket.fields.Policy!, 'base64').toString('utf8')) as { expiration: string; conditions: unknown[] };
    expect(policy.conditions).toEqual(
      expect.arrayContaining([['content-length-range', 1, CSV.length], { key: ticket.fields.key }, { 'Content-Type': 'text/csv' }, { bucket: bucket.bucket }]),
    );
    expect(Math.abs(Date.parse(policy.expiration) - Date.parse(ticket.expires_at))).toBeLessThan(2000);
    // The console may post to the bucket: its origin is in the content security policy's connect-src.
    const page = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(String(page.headers['content-security-policy'])).toContain(`connect-src 'self' ${s3!.endpoint}`);
  });

  it.skipIf(skipped)('a valid file: the bucket takes it, complete checks it, and its rows become trade records; complete again is 409', async () => {
    const ticket = await announce('exports.csv', CSV.length);
    const posted = await postToBucket(ticket, CSV);
    expect(posted.status, posted.body).toBe(204);
    const completed = await complete(ticket);
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect(completed.body.data).toMatchObject({ id: ticket.upload.id, status: 'processing' });
    await app.uploads.idle();
    const done = await log(ticket.upload.id);
    expect(done.upload).toMatchObject({ status: 'completed', rows_total: 4, rows_accepted: 2, rows_rejected: 2, error: null });
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
    expect(await stored(ticket.fields.key!)).toBe(true);
    // Each step of the upload is in the audit log, as the uploader: started, file accepted, imported.
    const entries = await server.db.query('SELECT user_id, action, details FROM audit_log WHERE module = $1 AND record_id = $2 ORDER BY id', ['DATA_UPLOAD_LOGS', ticket.upload.id]);
    const uploaderId = server.userIds.get('admin@example.com');
    expect(entries).toEqual([
      { user_id: uploaderId, action: 'create', details: {} },
      { user_id: uploaderId, action: 'upload', details: { accepted: true, size: CSV.length, sha256: contentHash(Buffer.from(CSV)) } },
      { user_id: uploaderId, action: 'import', details: { status: 'completed', rows_total: 4, rows_accepted: 2, rows_rejected: 2 } },
    ]);
  });

  it.skipIf(skipped)('complete needs DATA_UPLOAD_LOGS add (403 without), a known upload (404) and the file in the bucket (400 before it arrived)', async () => {
    const ticket = await announce('exports.csv', CSV.length);
    expect((await complete(ticket)).status).toBe(400);
    expect(await postToBucket(ticket, CSV)).toMatchObject({ status: 204 });
    const viewer = await server.auth('Read Only');
    expect((await complete(ticket, viewer)).status).toBe(403);
    expect((await call('POST', 'uploads/999999/complete', {})).status).toBe(404);
    expect((await log(ticket.upload.id)).upload).toMatchObject({ status: 'pending', stored_at: null });
    expect((await complete(ticket, await server.auth('Data Operator'))).status).toBe(200);
    await app.uploads.idle();
    expect((await log(ticket.upload.id)).upload).toMatchObject({ status: 'completed' });
  });

  it.skipIf(skipped)('a file larger than announced is refused, by the bucket or by complete, and nothing of it is kept', async () => {
    const ticket = await announce('small.csv', 40);
    const posted = await postToBucket(ticket, CSV);
    // S3 refuses it (EntityTooLarge) under the policy's content-length-range; moto_server does not enforce
    // POST policies at all and stores it, so complete's own size check (HEAD) is what refuses it there.
    const completed = await complete(ticket);
    if (posted.status >= 400) {
      expect(completed.status).toBe(400);
    } else {
      expect(completed.status).toBe(413);
      expect(completed.body).toMatchObject({ message: 'The file is larger than the 40 bytes announced for this upload.' });
      expect((await log(ticket.upload.id)).upload).toMatchObject({ status: 'failed', error: 'The file is larger than the 40 bytes announced for this upload.' });
    }
    expect(await stored(ticket.fields.key!)).toBe(false);
    expect(await tradeRecords(ticket.upload.id)).toBe(0);
  });

  it.skipIf(skipped)('a post under another key, of another type or after the link expired is not accepted', async () => {
    // moto_server stores what S3 refuses under the policy (403 AccessDenied for each of these); what the server
    // itself checks at completion is what keeps such a file out either way.
    const wrongKey = await announce('exports.csv', CSV.length);
    const elsewhere = `uploads/${wrongKey.upload.id}-0000000000000000.csv`;
    await postToBucket(wrongKey, CSV, (fields) => ({ ...fields, key: elsewhere }));
    expect(await stored(wrongKey.fields.key!)).toBe(false);
    expect((await complete(wrongKey)).status).toBe(400);
    expect((await log(wrongKey.upload.id)).upload).toMatchObject({ status: 'pending' });

    const wrongType = await announce('exports.csv', CSV.length);
    const typed = await postToBucket(wrongType, CSV, (fields) => ({ ...fields, 'Content-Type': 'text/html' }));
    const typeCompleted = await complete(wrongType);
    expect(typeCompleted.status).toBe(typed.status >= 400 ? 400 : 415);
    expect(await stored(wrongType.fields.key!)).toBe(false);

    // The link's expiry is moved an hour back, as if the file had reached the bucket an hour after it.
    const late = await announce('exports.csv', CSV.length);
    await server.db.query(`UPDATE upload_files SET expires_at = expires_at - interval '1 hour' - interval '${server.config.uploadUrlSeconds} seconds' WHERE upload_id = $1`, [late.upload.id]);
    expect(await postToBucket(late, CSV)).toMatchObject({ status: 204 });
    const lateCompleted = await complete(late);
    expect(lateCompleted.status).toBe(403);
    expect((await log(late.upload.id)).upload).toMatchObject({ status: 'failed', error: 'The file arrived after the upload link expired. Start the upload again.' });
    expect(await stored(late.fields.key!)).toBe(false);
    for (const ticket of [wrongKey, wrongType, late]) expect(await tradeRecords(ticket.upload.id)).toBe(0);
  });

  it.skipIf(skipped)('a header that does not match the data columns: complete answers 400, the upload fails with the reason in its log, the file is removed', async () => {
    const content = 'name,email\nx,y\n';
    const ticket = await announce('people.csv', content.length);
    expect(await postToBucket(ticket, content)).toMatchObject({ status: 204 });
    const completed = await complete(ticket);
    expect(completed.status).toBe(400);
    expect(completed.body.errors?.file).toContain('missing column(s): shipment_date');
    const failed = await log(ticket.upload.id);
    expect(failed.upload).toMatchObject({ status: 'failed', error: completed.body.errors?.file });
    expect(await stored(ticket.fields.key!)).toBe(false);
    expect((await complete(ticket)).status).toBe(409);
    const [refused] = await server.db.query(`SELECT action, details FROM audit_log WHERE record_id = $1 AND action = 'upload'`, [ticket.upload.id]);
    expect(refused).toEqual({ action: 'upload', details: { accepted: false, reason: completed.body.errors?.file } });
  });

  it.skipIf(skipped)('a same-size file posted again to the presigned POST after complete checked the first is not imported: the upload fails', async () => {
    const replacement = CSV.replace('Black pepper,100', 'Black pepper,999');
    expect(replacement).toHaveLength(CSV.length);
    const ticket = await announce('exports.csv', CSV.length);
    expect(await postToBucket(ticket, CSV)).toMatchObject({ status: 204 });
    // Reads of the key: complete's check first, then the processor's; the uploader posts again in between, with the
    // same signed fields (the link has not expired), a file that would pass every check itself.
    const reads: string[] = [];
    storage.beforeGet = async (key) => {
      if (key !== ticket.fields.key) return;
      reads.push(key);
      if (reads.length === 2) expect(await postToBucket(ticket, replacement)).toMatchObject({ status: 204 });
    };
    try {
      const completed = await complete(ticket);
      expect(completed.status, JSON.stringify(completed.body)).toBe(200);
      await app.uploads.idle();
    } finally {
      storage.beforeGet = null;
    }
    expect(reads).toHaveLength(2);
    // The bucket holds the replacement, the database what was checked.
    expect((await storage.get(ticket.fields.key!)).toString()).toBe(replacement);
    expect(await checkedHash(ticket.upload.id)).toBe(contentHash(Buffer.from(CSV)));
    expect((await log(ticket.upload.id)).upload).toMatchObject({ status: 'failed', error: CHANGED_FILE_ERROR, processed_at: expect.any(String) });
    expect(await tradeRecords(ticket.upload.id)).toBe(0);
    const unread = await call('GET', 'notification?is_read=false&_page=1&_page_size=50');
    expect(JSON.stringify(unread.body.data)).toContain('exports.csv</b> failed');
    expect((await complete(ticket)).status).toBe(409);
  });

  it.skipIf(skipped)('the bucket answers readiness (HeadBucket); a bucket that does not exist does not', async () => {
    await expect(storage.ready()).resolves.toBeUndefined();
    await expect(new S3BucketStorage({ ...bucket, bucket: `${bucket.bucket}-missing` }).ready()).rejects.toThrow();
  });

  it.skipIf(skipped)('at start, uploads left processing are processed again from the bucket, or failed when their file is gone', async () => {
    const crashed = await announce('exports.csv', CSV.length);
    const gone = await announce('gone.csv', CSV.length);
    // The state a crash mid-import leaves: accepted and stored, marked processing, the import rolled back.
    await s3!.client.send(new PutObjectCommand({ Bucket: bucket.bucket, Key: crashed.fields.key!, Body: CSV, ContentType: 'text/csv' }));
    for (const ticket of [crashed, gone]) {
      await server.db.query('UPDATE upload_files SET stored_at = now(), stored_size = $2, stored_sha256 = $3 WHERE upload_id = $1', [ticket.upload.id, CSV.length, contentHash(Buffer.from(CSV))]);
      await setUploadState(server.db, ticket.upload.id, { status: 'processing' });
    }
    const restarted = await buildApp({ config: server.config, db: server.db, storage: new S3BucketStorage(bucket) });
    try {
      await restarted.ready();
      await restarted.uploads.idle();
    } finally {
      await restarted.close();
    }
    expect((await log(crashed.upload.id)).upload).toMatchObject({ status: 'completed', rows_accepted: 2, rows_rejected: 2 });
    expect(await tradeRecords(crashed.upload.id)).toBe(2);
    expect((await log(gone.upload.id)).upload).toMatchObject({ status: 'failed', error: MISSING_FILE_ERROR });
    expect(await keys()).toContain(crashed.fields.key);
  });

  it.skipIf(skipped)('the same file for the same country, direction and period: complete refuses it naming the earlier upload, keeps it, and imports it once confirmed', async () => {
    const period = nextPeriod();
    const first = await announce('exports.csv', CSV.length, period);
    expect((await postToBucket(first, CSV)).status).toBe(204);
    expect((await complete(first)).status).toBe(200);
    await app.uploads.idle();

    const again = await announce('exports-again.csv', CSV.length, period);
    expect((await postToBucket(again, CSV)).status).toBe(204);
    const refused = await complete(again);
    expect(refused.status).toBe(409);
    expect(refused.body.errors?.confirm_duplicate).toMatch(new RegExp(`on \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC by Asha Admin \\(upload ${first.upload.id}\\)`));
    expect((await log(again.upload.id)).upload).toMatchObject({ status: 'pending', error: null });
    expect(await stored(again.fields.key!)).toBe(true);
    expect((await complete(again, admin, { confirm_duplicate: 'yes' })).body.errors).toHaveProperty('confirm_duplicate');

    expect((await complete(again, admin, { confirm_duplicate: true })).status).toBe(200);
    await app.uploads.idle();
    expect((await log(again.upload.id)).upload).toMatchObject({ status: 'completed', rows_accepted: 2 });
    expect(await tradeRecords(again.upload.id)).toBe(2);
  });
});
