import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { S3BucketStorage } from './s3Storage.ts';
import { uploadSignature } from './signing.ts';
import { LocalFolderStorage, type FileStorage } from './storage.ts';
import { s3ServerUnavailable, startS3Server, type S3TestServer } from './testing/s3Server.ts';
import { TRADE_CSV_WITH_REJECTS, nextPeriod } from './testing/tradeCsv.ts';
import { pathOf, tusRequests, type UploadTicket } from './testing/tusRequests.ts';
import { publishEveryImport } from './testing/reviewSettings.ts';

const databases = await testDatabases();
const s3Unavailable = s3ServerUnavailable();
if (s3Unavailable) console.warn(`S3 resumable upload tests SKIPPED: ${s3Unavailable}.`);

const LOTS = 12_000;
/** A trade file of about 6 MiB (more than one 5 MiB part of the bucket's multipart upload), 2 rows rejected. */
const BIG_CSV = Buffer.from(
  [
    TRADE_CSV_WITH_REJECTS,
    ...Array.from(
      { length: LOTS },
      (_, index) =>
        `2026-09-${String(1 + (index % 28)).padStart(2, '0')},0904,Black pepper lot ${index} ${'graded '.repeat(70)},${index + 1},KGS,${index * 3},,`,
    ),
  ].join('\n'),
);
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

let s3: S3TestServer | undefined;
beforeAll(async () => {
  if (!s3Unavailable) s3 = await startS3Server();
});
afterAll(async () => s3?.close());

const storages: Array<{
  name: string;
  skip: string | null;
  open: () => Promise<{ storage: () => FileStorage; close: () => Promise<void> }>;
}> = [
  {
    name: 'the data folder',
    skip: null,
    open: async () => {
      const folder = await mkdtemp(join(tmpdir(), 'resumable-'));
      return {
        storage: () => new LocalFolderStorage(folder),
        close: () => rm(folder, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'a bucket (moto_server)',
    skip: s3Unavailable,
    open: async () => {
      const bucket = await s3!.createBucket();
      return { storage: () => new S3BucketStorage(bucket), close: async () => {} };
    },
  },
];

describe.each(databases.flatMap((database) => storages.map((storage) => ({ ...database, storage }))))(
  'resumable uploads to $storage.name on $kind',
  ({ kind, skip, storage: place }) => {
    const skipped = skip ?? place.skip;
    let server: TestServer;
    let app: FastifyInstance;
    let opened: Awaited<ReturnType<typeof place.open>>;
    let admin: Record<string, string>;
    let countryId: number;
    let tus: ReturnType<typeof tusRequests>;

    const call = async (method: 'GET' | 'POST', url: string, payload?: object, headers = admin) => {
      const response = await app.inject({
        method,
        url: `/api/v1/${url}`,
        headers,
        ...(payload === undefined ? {} : { payload }),
      });
      return {
        status: response.statusCode,
        body: response.json() as { data: Record<string, unknown>; message: string; errors?: Record<string, string> },
      };
    };
    const announce = async (fileName: string, size: number, period = nextPeriod(), headers = admin) => {
      const answer = await call(
        'POST',
        'uploads',
        { country_id: countryId, trade_direction: 'export', period, file_name: fileName, size },
        headers,
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body.data as unknown as UploadTicket;
    };
    const complete = (ticket: UploadTicket, body: object = {}) => call('POST', ticket.complete_path, body);
    const uploadLog = async (id: number) =>
      ((await call('GET', `uploads/${id}/log`)).body.data as { upload: Record<string, unknown> }).upload;
    const fileRow = async (id: number) =>
      (
        await server.db.query<{
          storage_key: string | null;
          stored_sha256: string | null;
          received_sha256: string | null;
          stored_size: number | null;
        }>('SELECT storage_key, stored_sha256, received_sha256, stored_size FROM upload_files WHERE upload_id = $1', [
          id,
        ])
      )[0]!;
    const tradeRecords = async (id: number) =>
      (
        await server.db.query<{ count: number }>(
          'SELECT count(*)::int AS count FROM trade_records WHERE upload_id = $1',
          [id],
        )
      )[0]!.count;

    beforeAll(async () => {
      if (skipped) return;
      server = await startTestServer(kind);
      await publishEveryImport(server.db);
      opened = await place.open();
      app = await buildApp({ config: server.config, db: server.db, storage: opened.storage() });
      await app.ready();
      tus = tusRequests(app);
      admin = await server.auth('Super Admin');
      countryId = (
        await call('POST', 'countries', {
          name: 'India',
          iso2: 'IN',
          iso3: 'IND',
          region: 'asia',
          currency_code: 'INR',
        })
      ).body.data.id as number;
    });
    afterAll(async () => {
      await app?.close();
      await server?.close();
      await opened?.close();
    });

    it.skipIf(skipped)(
      'a file sent in part, stopped, and resumed from the offset HEAD gives is stored whole, hashed as it arrived, and processed',
      async () => {
        const ticket = await announce('exports.csv', BIG_CSV.length);
        expect(ticket.upload_url).toMatch(/^\/api\/v1\/uploads\/\d+\/file\?expires=\d+&signature=[\w-]+$/);
        const created = await tus.create(ticket.upload_url, BIG_CSV.length);
        expect(created.status, created.body).toBe(201);
        const location = String(created.headers.location);
        expect(pathOf(location)).toBe(ticket.upload_url);

        const half = Math.floor(BIG_CSV.length / 2) + 17;
        expect((await tus.patch(location, 0, BIG_CSV.subarray(0, half))).status).toBe(204);
        // The client stops here (a dropped connection); when it comes back it asks how far the server got.
        const head = await tus.offset(location);
        expect(head).toMatchObject({ status: 200, offset: half });
        expect(head.headers['upload-length']).toBe(String(BIG_CSV.length));
        expect((await complete(ticket)).body.errors?.file).toBe(
          `The file has not fully arrived yet: ${half} of ${BIG_CSV.length} bytes.`,
        );
        // A chunk sent from the wrong offset is refused and changes nothing.
        expect((await tus.patch(location, half - 1, BIG_CSV.subarray(half - 1))).status).toBe(409);
        expect((await tus.patch(location, half, BIG_CSV.subarray(half))).status).toBe(204);

        expect((await fileRow(ticket.upload.id)).received_sha256).toBe(sha256(BIG_CSV));
        const completed = await complete(ticket);
        expect(completed.status, JSON.stringify(completed.body)).toBe(200);
        expect(completed.body.data).toMatchObject({ status: 'processing' });
        await app.uploads.idle();
        expect(await uploadLog(ticket.upload.id)).toMatchObject({
          status: 'published',
          rows_total: LOTS + 4,
          rows_accepted: LOTS + 2,
          rows_rejected: 2,
          error: null,
        });
        expect(await tradeRecords(ticket.upload.id)).toBe(LOTS + 2);
        const row = await fileRow(ticket.upload.id);
        expect(row).toMatchObject({ stored_sha256: sha256(BIG_CSV), stored_size: BIG_CSV.length });
        expect(row.storage_key).toMatch(new RegExp(`^uploads/${ticket.upload.id}-[0-9a-f]{16}\\.csv$`));
        expect(sha256(await opened.storage().get(row.storage_key!))).toBe(sha256(BIG_CSV));
        // Done is done: no more chunks, no second completion, no second file.
        expect((await tus.offset(location)).status).toBe(409);
        expect((await complete(ticket)).status).toBe(409);
      },
    );

    it.skipIf(skipped)(
      'a file resumed on an instance that did not see its start (a restart) gets its hash by reading the stored file once',
      async () => {
        const ticket = await announce('restarted.csv', BIG_CSV.length);
        const created = await tus.create(ticket.upload_url, BIG_CSV.length);
        const location = String(created.headers.location);
        const part = 6 * 1024 * 1024;
        expect((await tus.patch(location, 0, BIG_CSV.subarray(0, part))).status).toBe(204);
        const other = await buildApp({ config: server.config, db: server.db, storage: opened.storage() });
        try {
          const otherTus = tusRequests(other);
          expect((await otherTus.offset(location)).offset).toBe(part);
          expect((await otherTus.patch(location, part, BIG_CSV.subarray(part))).status).toBe(204);
        } finally {
          await other.close();
        }
        expect((await fileRow(ticket.upload.id)).received_sha256).toBe(sha256(BIG_CSV));
        expect((await complete(ticket)).status).toBe(200);
        await app.uploads.idle();
        expect(await uploadLog(ticket.upload.id)).toMatchObject({ status: 'published', rows_accepted: LOTS + 2 });
      },
    );

    it.skipIf(skipped)(
      'Upload-Length must be the announced size, and no chunk may carry more bytes than announced',
      async () => {
        const content = Buffer.from(TRADE_CSV_WITH_REJECTS);
        const ticket = await announce('small.csv', content.length);
        const above = await tus.create(ticket.upload_url, content.length + 1);
        expect(above.status).toBe(413);
        expect(JSON.parse(above.body)).toMatchObject({
          message: `The file is larger than the ${content.length} bytes announced for this upload.`,
        });
        expect((await tus.create(ticket.upload_url, content.length - 1)).status).toBe(400);
        const deferred = await app.inject({
          method: 'POST',
          url: ticket.upload_url,
          headers: { 'tus-resumable': '1.0.0', 'upload-defer-length': '1' },
        });
        expect(deferred.statusCode).toBe(400);
        expect(deferred.json()).toMatchObject({ errors: { 'Upload-Length': expect.any(String) } });
        // Above the server's limit, an upload is not even started.
        expect(
          (
            await call('POST', 'uploads', {
              country_id: countryId,
              trade_direction: 'export',
              period: nextPeriod(),
              file_name: 'huge.csv',
              size: server.config.uploadMaxBytes + 1,
            })
          ).status,
        ).toBe(400);

        const created = await tus.create(ticket.upload_url, content.length);
        expect(created.status).toBe(201);
        const location = String(created.headers.location);
        const more = await tus.patch(
          location,
          0,
          Buffer.concat([content, Buffer.from('\n2026-09-09,0904,Extra,1,KGS,1')]),
        );
        expect(more.status).toBe(413);
        expect((await tus.offset(location)).offset).toBe(0);
        // A second creation of the same file is refused: the first is resumed instead.
        expect((await tus.create(ticket.upload_url, content.length)).status).toBe(409);
        expect((await tus.patch(location, 0, content)).status).toBe(204);
        expect((await complete(ticket)).status).toBe(200);
      },
    );

    it.skipIf(skipped)(
      'only the signed, unexpired link of the upload reaches its file, whatever the spelling',
      async () => {
        const content = Buffer.from(TRADE_CSV_WITH_REJECTS);
        const mine = await announce('mine.csv', content.length);
        const theirs = await announce('theirs.csv', content.length, nextPeriod(), await server.auth('Data Operator'));
        const mineUrl = new URL(mine.upload_url, 'http://unused.invalid');
        const theirsUrl = new URL(theirs.upload_url, 'http://unused.invalid');
        const status = async (url: string, method: 'POST' | 'HEAD' | 'PATCH' = 'POST') =>
          (
            await app.inject({
              method,
              url,
              headers: {
                'tus-resumable': '1.0.0',
                'upload-length': String(content.length),
                'upload-offset': '0',
                'content-type': 'application/offset+octet-stream',
              },
              ...(method === 'PATCH' ? { payload: content } : {}),
            })
          ).statusCode;

        expect(await status(mineUrl.pathname)).toBe(400);
        // Another upload's signature (someone else's link) opens nothing but that upload.
        expect(await status(`${mineUrl.pathname}${theirsUrl.search}`)).toBe(403);
        expect(await status(`${theirsUrl.pathname}${mineUrl.search}`)).toBe(403);
        const past = Math.floor(Date.now() / 1000) - 1;
        expect(
          await status(
            `${mineUrl.pathname}?expires=${past}&signature=${uploadSignature(server.config.jwtSecret, mine.upload.id, past)}`,
          ),
        ).toBe(403);
        for (const method of ['POST', 'HEAD', 'PATCH'] as const)
          expect(await status(`${mineUrl.pathname}?expires=${past}&signature=x`, method)).toBe(403);
        // Spellings: the same route (its checks apply), or no route at all.
        expect(await status(`${mineUrl.pathname}/${theirsUrl.search}`)).toBe(403);
        expect(await status(mineUrl.pathname.replace('uploads', 'upload%73') + theirsUrl.search)).toBe(403);
        expect(await status(mineUrl.pathname.replace('/file', '/File') + mineUrl.search)).toBe(404);
        expect(await status(`${mineUrl.pathname}/extra${mineUrl.search}`)).toBe(404);
        expect(await status(`/api/v1/uploads/${mine.upload.id}/../${theirs.upload.id}/file${mineUrl.search}`)).toBe(
          403,
        );
        expect(
          (await app.inject({ method: 'DELETE', url: mine.upload_url, headers: { 'tus-resumable': '1.0.0' } }))
            .statusCode,
        ).toBe(404);
        // Nothing was created by any of these; the link itself still works.
        expect((await fileRow(mine.upload.id)).storage_key).toBeNull();
        expect((await tus.offset(mine.upload_url)).status).toBe(404);
        await tus.sendFile(mine, content);
        expect((await complete(mine)).status).toBe(200);
        // An expired link sends no more chunks even to a file it started.
        const late = await announce('late.csv', content.length);
        const location = String((await tus.create(late.upload_url, content.length)).headers.location);
        const lateUrl = new URL(late.upload_url, 'http://unused.invalid');
        const expired = `${lateUrl.pathname}?expires=${past}&signature=${uploadSignature(server.config.jwtSecret, late.upload.id, past)}`;
        expect((await tus.patch(expired, 0, content)).status).toBe(403);
        expect((await tus.offset(location)).offset).toBe(0);
      },
    );

    it.skipIf(skipped)(
      "complete is the uploader's: no token 401, the wrong role 403, another user's upload 403, whatever the spelling",
      async () => {
        const content = Buffer.from(TRADE_CSV_WITH_REJECTS);
        const ticket = await announce('mine.csv', content.length);
        await tus.sendFile(ticket, content);
        const path = ticket.complete_path;
        const spellings = [
          path,
          `${path}/`,
          path.replace('/complete', '/%63omplete'),
          path.replace('uploads/', 'upload%73/'),
        ];
        for (const url of spellings) {
          expect((await app.inject({ method: 'POST', url: `/api/v1/${url}`, payload: {} })).statusCode, url).toBe(401);
          expect((await call('POST', url, {}, await server.auth('Read Only'))).status, url).toBe(403);
          expect((await call('POST', url, {}, await server.auth('Data Operator'))).status, url).toBe(403);
        }
        // None of these decided anything: the file is still there for its uploader to complete.
        expect(await uploadLog(ticket.upload.id)).toMatchObject({ status: 'pending', processed_at: null });
        expect((await call('POST', path.replace('/complete', '/%63omplete'), {})).status).toBe(200);
        expect((await complete(ticket)).status).toBe(409);
      },
    );

    it.skipIf(skipped)(
      'complete checks the header from the beginning of the stored file: a wrong one fails the upload and removes the file',
      async () => {
        const content = Buffer.from('name,email\nx,y\n');
        const ticket = await announce('people.csv', content.length);
        expect((await complete(ticket)).body.errors?.file).toBe('No file has arrived in storage for this upload yet.');
        await tus.sendFile(ticket, content);
        const key = (await fileRow(ticket.upload.id)).storage_key!;
        const refused = await complete(ticket);
        expect(refused.status).toBe(400);
        expect(refused.body.errors?.file).toContain('missing column(s): shipment_date');
        expect(await uploadLog(ticket.upload.id)).toMatchObject({ status: 'failed', error: refused.body.errors?.file });
        await expect(opened.storage().get(key)).rejects.toMatchObject({ code: 'ENOENT' });
        expect((await complete(ticket)).status).toBe(409);
      },
    );

    it.skipIf(skipped)(
      'a .csv.gz file is checked by gunzipping its beginning; one that is not gzip is refused',
      async () => {
        const gzipped = gzipSync(BIG_CSV);
        const ticket = await announce('exports.csv.gz', gzipped.length);
        await tus.sendFile(ticket, gzipped, 3);
        expect((await fileRow(ticket.upload.id)).storage_key).toMatch(/\.csv\.gz$/);
        const completed = await complete(ticket);
        expect(completed.status, JSON.stringify(completed.body)).toBe(200);
        expect(await fileRow(ticket.upload.id)).toMatchObject({
          stored_sha256: sha256(gzipped),
          stored_size: gzipped.length,
        });
        await app.uploads.idle();

        const plain = await announce('plain.csv.gz', BIG_CSV.length);
        await tus.sendFile(plain, BIG_CSV);
        const refused = await complete(plain);
        expect(refused.status).toBe(415);
        expect(refused.body.message).toBe('A .csv.gz file must be CSV compressed with gzip.');
        const wrongHeader = gzipSync(Buffer.from('name,email\nx,y\n'));
        const wrong = await announce('people.csv.gz', wrongHeader.length);
        await tus.sendFile(wrong, wrongHeader);
        expect((await complete(wrong)).body.errors?.file).toContain('missing column(s)');
      },
    );

    it.skipIf(skipped)(
      'the same bytes for the same country, direction and period: complete asks, keeps the file, and accepts it once confirmed',
      async () => {
        const content = Buffer.from(TRADE_CSV_WITH_REJECTS);
        const period = nextPeriod();
        const first = await announce('first.csv', content.length, period);
        await tus.sendFile(first, content);
        expect((await complete(first)).status).toBe(200);
        await app.uploads.idle();
        const again = await announce('again.csv', content.length, period);
        await tus.sendFile(again, content, 2);
        const asked = await complete(again);
        expect(asked.status).toBe(409);
        expect(asked.body.errors?.confirm_duplicate).toContain(`(upload ${first.upload.id})`);
        expect(await uploadLog(again.upload.id)).toMatchObject({ status: 'pending' });
        expect((await complete(again, { confirm_duplicate: true })).status).toBe(200);
        await app.uploads.idle();
        expect(await tradeRecords(again.upload.id)).toBe(2);
      },
    );
  },
);
