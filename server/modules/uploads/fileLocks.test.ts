import { request as httpRequest, type ClientRequest } from 'node:http';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import type { Database } from '../../db/database.ts';
import { openPostgres } from '../../db/postgres.ts';
import { startTestServer, testDatabases, TEST_DATABASE_URL, type TestServer } from '../../testing/testServer.ts';
import { until } from '../../testing/until.ts';
import { UploadFileLocker } from './fileLocks.ts';
import { LocalFolderStorage, contentHash } from './storage.ts';
import { TRADE_CSV, nextPeriod } from './testing/tradeCsv.ts';
import type { UploadTicket } from './testing/tusRequests.ts';
import { publishEveryImport } from './testing/reviewSettings.ts';

const databases = await testDatabases();

/** A trade file of a few hundred kB, so a chunk of it can be held half sent. */
const CONTENT = Buffer.from(TRADE_CSV + TRADE_CSV.split('\n').slice(1).join('\n').repeat(2000));
const HALF = 64 * 1024;
const TUS = { 'tus-resumable': '1.0.0' };

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/** A tus request to a listening instance; the body is written by `send` on the open request, which it ends. */
function tusRequest(
  base: string,
  method: string,
  url: string,
  headers: Record<string, string>,
  send: (request: ClientRequest) => void = (request) => request.end(),
) {
  return new Promise<Answer>((resolve, reject) => {
    const request = httpRequest(new URL(url, base), { method, headers: { ...TUS, ...headers } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
    });
    request.on('error', reject);
    send(request);
  });
}

describe.each(databases)(
  'one writer at a time for the file of an upload, across instances on one database, on $kind',
  ({ kind, skip }) => {
    let server: TestServer;
    let folder: string;
    const instances: Array<{ app: FastifyInstance; base: string; db: Database }> = [];
    let admin: Record<string, string>;
    let countryId: number;

    /** An instance as `npm start` runs another one: its own connections to the same database, the same data folder. */
    const startInstance = async () => {
      const db =
        kind === 'postgres' ? await openPostgres(TEST_DATABASE_URL, server.config.databaseSchema, 5) : server.db;
      const app = await buildApp({ config: server.config, db, storage: new LocalFolderStorage(folder) });
      const address = await app.listen({ host: '127.0.0.1', port: 0 });
      instances.push({ app, base: address, db });
      return { app, base: address };
    };
    const announce = async (app: FastifyInstance): Promise<{ ticket: UploadTicket; location: string }> => {
      const announced = await app.inject({
        method: 'POST',
        url: '/api/v1/uploads',
        headers: admin,
        payload: {
          country_id: countryId,
          trade_direction: 'export',
          period: nextPeriod(),
          file_name: 'shared.csv',
          size: CONTENT.length,
        },
      });
      const ticket = (announced.json() as { data: UploadTicket }).data;
      const created = await app.inject({
        method: 'POST',
        url: ticket.upload_url,
        headers: { ...TUS, 'upload-length': String(CONTENT.length) },
      });
      expect(created.statusCode, created.body).toBe(201);
      return { ticket, location: String(created.headers.location) };
    };
    const keyOf = async (uploadId: number) =>
      (
        await server.db.query<{ storage_key: string }>('SELECT storage_key FROM upload_files WHERE upload_id = $1', [
          uploadId,
        ])
      )[0]!.storage_key;
    const heldLocks = (key: string) =>
      server.db.query<{ holder: string; release_requested: boolean }>(
        'SELECT holder, release_requested FROM upload_file_locks WHERE file_id = $1',
        [key],
      );
    const received = async (key: string) => (await stat(join(folder, key)).catch(() => null))?.size ?? 0;
    const patch = (base: string, location: string, offset: number, body: Buffer) =>
      tusRequest(
        base,
        'PATCH',
        location,
        {
          'content-type': 'application/offset+octet-stream',
          'upload-offset': String(offset),
          'content-length': String(body.length),
        },
        (request) => request.end(body),
      );

    beforeAll(async () => {
      if (skip) return;
      server = await startTestServer(kind);
      await publishEveryImport(server.db);
      folder = await mkdtemp(join(tmpdir(), 'shared-uploads-'));
      admin = await server.auth('Super Admin');
      const country = await server.app.inject({
        method: 'POST',
        url: '/api/v1/countries',
        headers: admin,
        payload: { name: 'India', iso2: 'IN', iso3: 'IND', region: 'asia', currency_code: 'INR' },
      });
      countryId = (country.json() as { data: { id: number } }).data.id;
    });
    afterAll(async () => {
      for (const instance of instances) {
        await instance.app.close();
        if (instance.db !== server?.db) await instance.db.close();
      }
      await server?.close();
      if (folder) await rm(folder, { recursive: true, force: true });
    });

    it.skipIf(skip)(
      'a chunk sent to a second instance while the first still receives one waits for it to let go, and writes only from where the file ends',
      async () => {
        const first = await startInstance();
        const second = await startInstance();
        const { ticket, location } = await announce(first.app);
        const key = await keyOf(ticket.upload.id);

        // A chunk arriving slowly on the first instance: half of it sent, the rest never comes (a client that went away).
        const held = tusRequest(
          first.base,
          'PATCH',
          location,
          {
            'content-type': 'application/offset+octet-stream',
            'upload-offset': '0',
            'content-length': String(CONTENT.length),
          },
          (request) => request.write(CONTENT.subarray(0, HALF)),
        ).catch((): Answer => ({ status: 0, headers: {} }));
        await until(async () => (await received(key)) >= HALF, 'the first half chunk to be stored');
        expect(await heldLocks(key)).toHaveLength(1);

        // The client resumes on the other instance from where it believes the file ends (0): the first instance is asked to
        // let go, and then the file ends where the first chunk stopped, so this chunk, sent from 0, is refused (409).
        const resent = await patch(second.base, location, 0, CONTENT);
        expect(resent.status).toBe(409);
        // The first instance's chunk was ended where it stood (tus answers it with the offset it reached).
        const cut = await held;
        expect(Number(cut.headers['upload-offset'])).toBeLessThan(CONTENT.length);
        const offset = await tusRequest(second.base, 'HEAD', location, {});
        const arrived = Number(offset.headers['upload-offset']);
        expect(arrived).toBe(await received(key));
        expect(arrived).toBeGreaterThanOrEqual(HALF);

        // The rest from there: the file is exactly the content, and its hash is the content's.
        expect((await patch(second.base, location, arrived, CONTENT.subarray(arrived))).status).toBe(204);
        expect((await readFile(join(folder, key))).equals(CONTENT)).toBe(true);
        const completed = await second.app.inject({
          method: 'POST',
          url: `/api/v1/${ticket.complete_path}`,
          headers: admin,
          payload: {},
        });
        expect(completed.statusCode, completed.body).toBe(200);
        const [file] = await server.db.query<{ stored_sha256: string }>(
          'SELECT stored_sha256 FROM upload_files WHERE upload_id = $1',
          [ticket.upload.id],
        );
        expect(file?.stored_sha256).toBe(contentHash(CONTENT));
        expect(await heldLocks(key)).toEqual([]);
      },
    );

    it.skipIf(skip)(
      'the whole file sent to two instances at once is written by one of them at a time: never both from 0',
      async () => {
        const [first, second] = instances.length >= 2 ? instances : [await startInstance(), await startInstance()];
        const { ticket, location } = await announce(first!.app);
        const key = await keyOf(ticket.upload.id);
        const answers = await Promise.all([
          patch(first!.base, location, 0, CONTENT),
          patch(second!.base, location, 0, CONTENT),
        ]);
        // The one that came second found the file no longer ending at 0. (The first may itself have been asked to let go
        // mid-chunk: then neither finished, and the file holds what the first wrote.)
        expect(answers.filter((answer) => answer.status === 204).length).toBeLessThanOrEqual(1);
        expect(answers.filter((answer) => answer.status === 409)).toHaveLength(1);
        const arrived = Number((await tusRequest(second!.base, 'HEAD', location, {})).headers['upload-offset']);
        expect((await readFile(join(folder, key))).equals(CONTENT.subarray(0, arrived))).toBe(true);
        if (arrived < CONTENT.length)
          expect((await patch(second!.base, location, arrived, CONTENT.subarray(arrived))).status).toBe(204);
        expect((await readFile(join(folder, key))).equals(CONTENT)).toBe(true);
      },
    );

    it.skipIf(skip)(
      'the lock of an instance that stopped mid-chunk lapses; a file held now is not taken by the cleanup',
      async () => {
        const locker = new UploadFileLocker(server.db);
        await server.db.query(
          "INSERT INTO upload_file_locks (file_id, holder, held_until) VALUES ('uploads/lapsed.csv', 'stopped', now() - interval '1 second')",
        );
        const lapsed = await locker.tryLock('uploads/lapsed.csv');
        expect(lapsed).not.toBeNull();
        expect(await locker.tryLock('uploads/lapsed.csv')).toBeNull();
        await lapsed!.unlock();
        const again = await locker.tryLock('uploads/lapsed.csv');
        expect(again).not.toBeNull();
        await again!.unlock();
        expect(await heldLocks('uploads/lapsed.csv')).toEqual([]);
      },
    );
  },
);
