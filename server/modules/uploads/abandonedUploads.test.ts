import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { until } from '../../testing/until.ts';
import { ABANDONED_ERROR, STALLED_ERROR, endAbandonedUploads } from './abandonedUploads.ts';
import { UploadFileLocker } from './fileLocks.ts';
import { LocalFolderStorage } from './storage.ts';
import { TRADE_CSV, nextPeriod } from './testing/tradeCsv.ts';
import { tusRequests, type UploadTicket } from './testing/tusRequests.ts';
import { publishEveryImport } from './testing/reviewSettings.ts';

const databases = await testDatabases();

const CSV = Buffer.from(TRADE_CSV);

describe.each(databases)(
  'uploads whose file never arrived in full before their link expired, on $kind',
  ({ kind, skip }) => {
    let server: TestServer;
    let folder: string;
    let storage: LocalFolderStorage;
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
    const announce = async (): Promise<UploadTicket> =>
      (
        await call('POST', 'uploads', {
          country_id: countryId,
          trade_direction: 'export',
          period: nextPeriod(),
          file_name: 'slow.csv',
          size: CSV.length,
        })
      ).body.data as unknown as UploadTicket;
    /** An upload whose file arrived up to `bytes` (0: created, nothing sent; null: never created). */
    const partlySent = async (bytes: number | null) => {
      const ticket = await announce();
      if (bytes === null) return { ticket, key: null };
      const created = await tusRequests(app).create(ticket.upload_url, CSV.length);
      if (bytes > 0)
        expect((await tusRequests(app).patch(String(created.headers.location), 0, CSV.subarray(0, bytes))).status).toBe(
          204,
        );
      return { ticket, key: await keyOf(ticket.upload.id) };
    };
    const keyOf = async (uploadId: number) =>
      (
        await server.db.query<{ storage_key: string }>('SELECT storage_key FROM upload_files WHERE upload_id = $1', [
          uploadId,
        ])
      )[0]!.storage_key;
    const expire = (ticket: UploadTicket) =>
      server.db.query("UPDATE upload_files SET expires_at = now() - interval '1 second' WHERE upload_id = $1", [
        ticket.upload.id,
      ]);
    const state = async (ticket: UploadTicket) =>
      ((await call('GET', `uploads/${ticket.upload.id}/log`)).body.data as { upload: Record<string, unknown> }).upload;
    const filesOf = async (ticket: UploadTicket) =>
      (await readdir(join(folder, 'uploads')).catch(() => [])).filter((name) =>
        name.startsWith(`${ticket.upload.id}-`),
      );

    beforeAll(async () => {
      if (skip) return;
      server = await startTestServer(kind);
      await publishEveryImport(server.db);
      folder = await mkdtemp(join(tmpdir(), 'abandoned-uploads-'));
      storage = new LocalFolderStorage(folder);
      app = await buildApp({ config: server.config, db: server.db, storage });
      await app.ready();
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
      if (folder) await rm(folder, { recursive: true, force: true });
    });

    it.skipIf(skip)(
      'end as abandoned with the reason, their uploader told, and what arrived of their file removed; the others are left as they are',
      async () => {
        const abandoned = await partlySent(40);
        const neverSent = await partlySent(null);
        const stillOpen = await partlySent(40);
        const arrived = await partlySent(CSV.length);
        expect((await call('POST', arrived.ticket.complete_path, {})).status).toBe(200);
        await app.uploads.idle();
        for (const { ticket } of [abandoned, neverSent, arrived]) await expire(ticket);
        expect(await filesOf(abandoned.ticket)).toEqual([
          abandoned.key!.slice('uploads/'.length),
          `${abandoned.key!.slice('uploads/'.length)}.json`,
        ]);

        expect(await endAbandonedUploads(app)).toEqual([abandoned.ticket.upload.id, neverSent.ticket.upload.id]);
        expect(await state(abandoned.ticket)).toMatchObject({
          status: 'abandoned',
          error: STALLED_ERROR,
          processed_at: expect.any(String),
        });
        expect(await state(neverSent.ticket)).toMatchObject({
          status: 'abandoned',
          error: ABANDONED_ERROR,
          processed_at: expect.any(String),
        });
        expect(await filesOf(abandoned.ticket)).toEqual([]);
        expect(await state(stillOpen.ticket)).toMatchObject({ status: 'pending', processed_at: null });
        expect(await filesOf(stillOpen.ticket)).toHaveLength(2);
        expect(await state(arrived.ticket)).toMatchObject({ status: 'published', error: null });
        expect(await filesOf(arrived.ticket)).toHaveLength(2);

        // The uploader is told, and the audit trail says why, in the uploader's name (no request ended it).
        const [notice] = await server.db.query<{ message: string }>(
          "SELECT message FROM notifications WHERE user_id = $1 AND message LIKE '%before the upload link expired%'",
          [server.userIds.get('admin@example.com')],
        );
        expect(notice?.message).toContain('<b>slow.csv</b> was abandoned');
        const entries = await server.db.query(
          'SELECT user_id, action, details FROM audit_log WHERE module = $1 AND record_id = $2 ORDER BY id',
          ['DATA_UPLOAD_LOGS', abandoned.ticket.upload.id],
        );
        expect(entries.at(-1)).toEqual({
          user_id: server.userIds.get('admin@example.com'),
          action: 'import',
          details: { status: 'abandoned', error: STALLED_ERROR },
        });
        // Ended once: the next round (or another instance's) finds nothing, and the upload cannot be completed any more.
        expect(await endAbandonedUploads(app)).toEqual([]);
        expect((await call('POST', abandoned.ticket.complete_path, {})).status).toBe(409);
      },
    );

    it.skipIf(skip)(
      'one whose file a request is still writing (a chunk started before the expiry) is left to the next round',
      async () => {
        const writing = await partlySent(40);
        await expire(writing.ticket);
        const chunk = await new UploadFileLocker(server.db).tryLock(writing.key!);
        try {
          expect(await endAbandonedUploads(app)).toEqual([]);
          expect(await state(writing.ticket)).toMatchObject({ status: 'pending' });
        } finally {
          await chunk!.unlock();
        }
        expect(await endAbandonedUploads(app)).toEqual([writing.ticket.upload.id]);
        expect(await state(writing.ticket)).toMatchObject({ status: 'abandoned', error: STALLED_ERROR });
        expect(await filesOf(writing.ticket)).toEqual([]);
      },
    );

    it.skipIf(skip)(
      'an upload cancelled while its file arrives has what arrived removed at once, or, while a chunk is being written, by the next round',
      async () => {
        const cancelled = await partlySent(40);
        expect((await call('POST', `uploads/${cancelled.ticket.upload.id}/cancel`)).status).toBe(202);
        expect(await state(cancelled.ticket)).toMatchObject({ status: 'cancelled' });
        expect(await filesOf(cancelled.ticket)).toEqual([]);
        expect((await tusRequests(app).create(cancelled.ticket.upload_url, CSV.length)).status).toBe(409);

        const writing = await partlySent(40);
        const chunk = await new UploadFileLocker(server.db).tryLock(writing.key!);
        try {
          expect((await call('POST', `uploads/${writing.ticket.upload.id}/cancel`)).status).toBe(202);
          expect(await filesOf(writing.ticket)).toHaveLength(2);
        } finally {
          await chunk!.unlock();
        }
        expect(await endAbandonedUploads(app)).toEqual([]);
        expect(await filesOf(writing.ticket)).toEqual([]);
        expect(await state(writing.ticket)).toMatchObject({ status: 'cancelled' });
      },
    );

    it.skipIf(skip)('every instance ends them as it starts (the job then runs every few minutes)', async () => {
      const abandoned = await partlySent(40);
      await expire(abandoned.ticket);
      const restarted = await buildApp({
        config: server.config,
        db: server.db,
        storage: new LocalFolderStorage(folder),
      });
      try {
        await restarted.ready();
        await until(
          async () => (await state(abandoned.ticket)).status !== 'pending',
          'the job at start to end the upload',
          15_000,
        );
      } finally {
        await restarted.close();
      }
      expect(await state(abandoned.ticket)).toMatchObject({ status: 'abandoned', error: STALLED_ERROR });
      expect(await filesOf(abandoned.ticket)).toEqual([]);
    });
  },
);
