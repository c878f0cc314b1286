import type { Readable } from 'node:stream';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { CHANGED_FILE_ERROR } from './tradeFile.ts';
import { setUploadState } from './uploadState.ts';
import { LocalFolderStorage, contentHash } from './storage.ts';
import { TRADE_CSV, nextPeriod } from './testing/tradeCsv.ts';
import { tusRequests, type UploadTicket } from './testing/tusRequests.ts';
import { publishEveryImport } from './testing/reviewSettings.ts';

const databases = await testDatabases();

const CSV = TRADE_CSV;
/** As CSV, the same size and as valid, other content. */
const REPLACEMENT = CSV.replace('Black pepper,100', 'Black pepper,999');

/** The data folder with a hook run before each read, to act between the check on arrival and the processor's read. */
class HookedFolderStorage extends LocalFolderStorage {
  beforeGet: ((key: string) => Promise<void>) | null = null;

  constructor(private readonly directory: string) {
    super(directory);
  }

  override async get(key: string): Promise<Buffer> {
    await this.beforeGet?.(key);
    return super.get(key);
  }

  override async read(key: string): Promise<Readable> {
    await this.beforeGet?.(key);
    return super.read(key);
  }

  /** Another writer of the folder, replacing a stored file in place. */
  async replace(key: string, data: string): Promise<void> {
    await writeFile(join(this.directory, key), data);
  }
}

describe.each(databases)('uploads kept in the data folder, pinned to the checked bytes, on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let folder: string;
  let storage: HookedFolderStorage;
  let app: FastifyInstance;
  let admin: Record<string, string>;
  let countryId: number;

  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: admin,
      ...(payload === undefined ? {} : { payload }),
    });
    return { status: response.statusCode, body: response.json() as { data: Record<string, unknown> } };
  };
  const uploadState = async (id: number) =>
    ((await call('GET', `uploads/${id}/log`)).body.data as { upload: Record<string, unknown> }).upload;
  const stored = async (id: number) =>
    (
      await server.db.query<{ storage_key: string; stored_sha256: string | null }>(
        'SELECT storage_key, stored_sha256 FROM upload_files WHERE upload_id = $1',
        [id],
      )
    )[0]!;
  const tradeRecords = async (id: number) =>
    (
      await server.db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM trade_records WHERE upload_id = $1',
        [id],
      )
    )[0]!.count;

  /** Announces an upload and sends its file to the signed URL (tus); `complete` then checks and accepts it. */
  const announce = async (fileName: string, content: string, period = nextPeriod()) => {
    const announced = await call('POST', 'uploads', {
      country_id: countryId,
      trade_direction: 'export',
      period,
      file_name: fileName,
      size: content.length,
    });
    expect(announced.status).toBe(201);
    const ticket = announced.body.data as unknown as UploadTicket;
    await tusRequests(app).sendFile(ticket, Buffer.from(content));
    return ticket;
  };
  const complete = async (
    ticket: UploadTicket,
    answers: { confirm_duplicate?: boolean; add_to_published?: boolean; replace_published?: boolean } = {},
  ) => {
    const answer = await app.inject({
      method: 'POST',
      url: `/api/v1/${ticket.complete_path}`,
      headers: admin,
      payload: answers,
    });
    return { status: answer.statusCode, body: answer.json() as { message: string; errors?: Record<string, string> } };
  };
  const upload = async (fileName: string, content: string, period?: string) => {
    const ticket = await announce(fileName, content, period);
    const completed = await complete(ticket);
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    return ticket.upload.id;
  };

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    await publishEveryImport(server.db);
    folder = await mkdtemp(join(tmpdir(), 'folder-uploads-'));
    storage = new HookedFolderStorage(folder);
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
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it.skipIf(skip)(
    'starting an upload needs DATA_UPLOAD_LOGS add: no token 401, the wrong role 403, whatever the spelling; nothing is created',
    async () => {
      const body = {
        country_id: countryId,
        trade_direction: 'export',
        period: nextPeriod(),
        file_name: 'refused.csv',
        size: 10,
      };
      const before = (await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM upload_files'))[0]!
        .count;
      for (const url of ['/api/v1/uploads', '/api/v1/uploads/', '/api/v1/upload%73', '/%61pi/v1/uploads']) {
        expect([401, 404], url).toContain((await app.inject({ method: 'POST', url, payload: body })).statusCode);
        expect([403, 404], url).toContain(
          (await app.inject({ method: 'POST', url, headers: await server.auth('Read Only'), payload: body }))
            .statusCode,
        );
      }
      expect((await app.inject({ method: 'POST', url: '/api/v1/uploads', payload: body })).statusCode).toBe(401);
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/api/v1/uploads',
            headers: await server.auth('Read Only'),
            payload: body,
          })
        ).statusCode,
      ).toBe(403);
      expect(
        (await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM upload_files'))[0]!.count,
      ).toBe(before);
    },
  );

  it.skipIf(skip)(
    'the signed URL never takes its origin from the Host header: a path without PUBLIC_URL, PUBLIC_URL when set',
    async () => {
      const announceOn = (target: FastifyInstance) =>
        target.inject({
          method: 'POST',
          url: '/api/v1/uploads',
          headers: { ...admin, host: 'attacker.example', 'x-forwarded-host': 'attacker.example' },
          payload: {
            country_id: countryId,
            trade_direction: 'import',
            period: nextPeriod(),
            file_name: 'host.csv',
            size: 10,
          },
        });
      const relative = (await announceOn(app)).json() as { data: { upload_url: string } };
      expect(relative.data.upload_url).toMatch(/^\/api\/v1\/uploads\/\d+\/file\?expires=\d+&signature=[\w-]+$/);
      const configured = await buildApp({
        config: { ...server.config, publicUrl: 'https://admin.example.com/' },
        db: server.db,
        storage,
      });
      try {
        const absolute = (await announceOn(configured)).json() as { data: { upload_url: string } };
        expect(absolute.data.upload_url).toMatch(/^https:\/\/admin\.example\.com\/api\/v1\/uploads\/\d+\/file\?/);
      } finally {
        await configured.close();
      }
    },
  );

  it.skipIf(skip)(
    'a valid file is kept in the folder with the SHA-256 of the checked bytes recorded, and imported',
    async () => {
      const id = await upload('exports.csv', CSV);
      await app.uploads.idle();
      const { storage_key: key, stored_sha256: hash } = await stored(id);
      expect(hash).toBe(contentHash(Buffer.from(CSV)));
      expect((await storage.get(key)).toString()).toBe(CSV);
      expect(await uploadState(id)).toMatchObject({
        status: 'published',
        rows_total: 2,
        rows_accepted: 2,
        rows_rejected: 0,
        error: null,
      });
      expect(await tradeRecords(id)).toBe(2);
    },
  );

  it.skipIf(skip)(
    'a file replaced in the folder by one of the same size after it was accepted is not imported: the upload fails',
    async () => {
      storage.beforeGet = async (key) => {
        storage.beforeGet = null;
        await storage.replace(key, REPLACEMENT);
      };
      let id: number;
      try {
        id = await upload('swapped.csv', CSV);
        await app.uploads.idle();
      } finally {
        storage.beforeGet = null;
      }
      const { storage_key: key, stored_sha256: hash } = await stored(id);
      expect((await storage.get(key)).toString()).toBe(REPLACEMENT);
      expect(hash).toBe(contentHash(Buffer.from(CSV)));
      expect(await uploadState(id)).toMatchObject({
        status: 'failed',
        error: CHANGED_FILE_ERROR,
        processed_at: expect.any(String),
      });
      expect(await tradeRecords(id)).toBe(0);
    },
  );

  it.skipIf(skip)(
    'at start, uploads left processing are imported from the folder when their bytes are the checked ones, and fail when not',
    async () => {
      const kept = await upload('kept.csv', CSV);
      const swapped = await upload('swapped-while-stopped.csv', CSV);
      await app.uploads.idle();
      // The state a crash mid-import leaves (the import rolled back); one file is replaced while the server is down.
      for (const id of [kept, swapped]) {
        await server.db.query('DELETE FROM trade_records WHERE upload_id = $1', [id]);
        await server.db.query('UPDATE upload_files SET processed_at = NULL, error = NULL WHERE upload_id = $1', [id]);
        await setUploadState(server.app, server.db, id, { status: 'processing' });
      }
      await storage.replace((await stored(swapped)).storage_key, REPLACEMENT);
      const restarted = await buildApp({
        config: server.config,
        db: server.db,
        storage: new LocalFolderStorage(folder),
      });
      try {
        await restarted.ready();
        await restarted.uploads.idle();
      } finally {
        await restarted.close();
      }
      expect(await uploadState(kept)).toMatchObject({ status: 'published', rows_accepted: 2, error: null });
      expect(await tradeRecords(kept)).toBe(2);
      expect(await uploadState(swapped)).toMatchObject({ status: 'failed', error: CHANGED_FILE_ERROR });
      expect(await tradeRecords(swapped)).toBe(0);
    },
  );

  it.skipIf(skip)(
    'the same file for the same country, direction and period is refused naming the earlier upload, and imported once confirmed',
    async () => {
      const period = nextPeriod();
      const first = await upload('september.csv', CSV, period);
      await app.uploads.idle();
      const again = await announce('september-again.csv', CSV, period);
      const refused = await complete(again);
      expect(refused.status).toBe(409);
      expect(refused.body.message).toMatch(
        new RegExp(
          `^The same file was already uploaded for this country, trade direction and period on \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC by Asha Admin \\(upload ${first}\\)\\.$`,
        ),
      );
      // The earlier upload is published, so both questions are asked: import again (adding), or replace it.
      expect(refused.body.errors).toEqual({
        confirm_duplicate: refused.body.message,
        confirm_published: `Records of this country, trade direction and period are already published: upload ${first} (september.csv, 2 rows). Replace them with this file, or add this file's rows to them.`,
      });
      // Nothing accepted: the upload waits for the answer, with its file kept for it.
      expect(await uploadState(again.upload.id)).toMatchObject({ status: 'pending', stored_at: null });
      expect(
        (await readdir(join(folder, 'uploads'))).filter(
          (name) => name.startsWith(`${again.upload.id}-`) && name.endsWith('.csv'),
        ),
      ).toHaveLength(1);

      // Confirmed, the same file is imported again, beside the first; another period is no duplicate.
      expect((await complete(again, { confirm_duplicate: true })).status).toBe(200);
      await app.uploads.idle();
      expect(await uploadState(again.upload.id)).toMatchObject({ status: 'published', rows_accepted: 2 });
      expect(await tradeRecords(again.upload.id)).toBe(2);
      await upload('october.csv', CSV);
    },
  );

  it.skipIf(skip)(
    'other bytes for a month already published are asked about: added to it, or replacing it, as the uploader answers',
    async () => {
      const period = nextPeriod();
      const first = await upload('march.csv', CSV, period);
      await app.uploads.idle();
      const added = await announce('march-part-2.csv', REPLACEMENT, period);
      const asked = await complete(added);
      expect(asked.status).toBe(409);
      expect(asked.body.errors).toEqual({
        confirm_published: `Records of this country, trade direction and period are already published: upload ${first} (march.csv, 2 rows). Replace them with this file, or add this file's rows to them.`,
      });
      expect(await uploadState(added.upload.id)).toMatchObject({ status: 'pending', stored_at: null });
      expect((await complete(added, { add_to_published: true })).status).toBe(200);
      await app.uploads.idle();
      expect([await uploadState(first), await uploadState(added.upload.id)]).toMatchObject([
        { status: 'published' },
        { status: 'published' },
      ]);

      const corrected = await announce('march-corrected.csv', REPLACEMENT, period);
      expect((await complete(corrected)).body.errors?.confirm_published).toMatch(
        new RegExp(
          `published: upload ${first} \\(march\\.csv, 2 rows\\), upload ${added.upload.id} \\(march-part-2\\.csv, \\d+ rows\\)\\.`,
        ),
      );
      expect((await complete(corrected, { replace_published: true })).status).toBe(200);
      await app.uploads.idle();
      expect([
        await uploadState(first),
        await uploadState(added.upload.id),
        await uploadState(corrected.upload.id),
      ]).toMatchObject([{ status: 'replaced' }, { status: 'replaced' }, { status: 'published' }]);
      expect([await tradeRecords(first), await tradeRecords(added.upload.id)]).toEqual([0, 0]);
      expect(await tradeRecords(corrected.upload.id)).toBeGreaterThan(0);
    },
  );

  it.skipIf(skip)('uploads/columns lists the columns a file is checked against, to those who may upload', async () => {
    const answer = await call('GET', 'uploads/columns?trade_direction=export');
    expect(answer.status).toBe(200);
    const columns = answer.body.data as unknown as Array<{ name: string; type: string; required: boolean }>;
    expect(columns.slice(0, 4)).toEqual([
      { name: 'shipment_date', type: 'date', required: true },
      { name: 'hs_code', type: 'string', required: true },
      { name: 'product_description', type: 'string', required: true },
      { name: 'quantity', type: 'number', required: true },
    ]);
    expect(columns).toContainEqual({ name: 'importer', type: 'string', required: false });
    expect((await call('GET', 'uploads/columns')).status).toBe(400);
    expect((await call('GET', 'uploads/columns?trade_direction=sideways')).status).toBe(400);
    const get = async (url: string, headers: Record<string, string> = {}) =>
      (await app.inject({ method: 'GET', url, headers })).statusCode;
    expect(await get('/api/v1/uploads/columns?trade_direction=export')).toBe(401);
    expect(await get('/api/v1/uploads/columns?trade_direction=export', await server.auth('Read Only'))).toBe(403);
    expect(await get('/api/v1/uploads/columns/?trade_direction=export')).toBe(401);
    expect(await get('/api/v1/uploads/columns/?trade_direction=export', await server.auth('Read Only'))).toBe(403);
    expect(await get('/api/v1/Uploads/Columns?trade_direction=export', await server.auth('Read Only'))).not.toBe(200);
  });
});
