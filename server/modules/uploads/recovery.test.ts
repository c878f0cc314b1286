import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { GAVE_UP_ERROR, MAX_IMPORT_ATTEMPTS, MISSING_FILE_ERROR, UNVERIFIABLE_FILE_ERROR } from './importErrors.ts';
import { CHANGED_FILE_ERROR } from './tradeFile.ts';
import { setUploadState } from './uploadState.ts';
import { contentHash, MemoryStorage } from './storage.ts';
import { TRADE_CSV } from './testing/tradeCsv.ts';
import { publishEveryImport } from './testing/reviewSettings.ts';

const databases = await testDatabases();

const CSV = TRADE_CSV;

/** A storage that does not answer (a bucket out of reach) for the next `failures` reads. */
class UnreachableStorage extends MemoryStorage {
  constructor(
    private readonly reachable: MemoryStorage,
    private failures: number,
  ) {
    super();
  }

  override async get(key: string): Promise<Buffer> {
    if (this.failures > 0) {
      this.failures -= 1;
      throw Object.assign(new Error('connect ETIMEDOUT 10.0.0.9:443'), { code: 'ETIMEDOUT' });
    }
    return this.reachable.get(key);
  }
}

describe.each(databases)('uploads left processing by a stopped server, on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let countryId: number;

  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await server.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: admin,
      ...(payload === undefined ? {} : { payload }),
    });
    return response.json() as { data: Record<string, unknown> };
  };
  const uploadState = async (id: number) =>
    ((await call('GET', `uploads/${id}/log`)).data as { upload: Record<string, unknown> }).upload;
  const tradeRecords = async (id: number) =>
    (
      await server.db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM trade_records WHERE upload_id = $1',
        [id],
      )
    )[0]!.count;

  /**
   * An upload as a crash mid-import leaves it: file stored and accepted (CSV checked, its hash recorded; `file` is
   * what storage holds now), status processing, the import rolled back.
   */
  const leftProcessing = async (
    fileName: string,
    file: string | null,
    checkedHash: string | null = contentHash(Buffer.from(CSV)),
  ) => {
    const created = await call('POST', 'uploads', {
      country_id: countryId,
      trade_direction: 'export',
      period: '2026-09',
      file_name: fileName,
      size: CSV.length,
    });
    const id = (created.data.upload as { id: number }).id;
    const key = `uploads/${id}-00000000deadbeef.csv`;
    if (file !== null) await server.storage.put(key, Buffer.from(file));
    await server.db.query(
      'UPDATE upload_files SET stored_at = now(), storage_key = $2, stored_size = $3, stored_sha256 = $4 WHERE upload_id = $1',
      [id, key, CSV.length, checkedHash],
    );
    await setUploadState(server.app, server.db, id, { status: 'processing' });
    return id;
  };
  const attempts = async (id: number) =>
    (
      await server.db.query<{ import_attempts: number }>(
        'SELECT import_attempts FROM upload_files WHERE upload_id = $1',
        [id],
      )
    )[0]!.import_attempts;
  /** The server starting again on the same database and storage. */
  const restart = async (storage = server.storage) => {
    const app = await buildApp({ config: server.config, db: server.db, storage });
    try {
      await app.ready();
      await app.uploads.idle();
    } finally {
      await app.close();
    }
  };

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    await publishEveryImport(server.db);
    admin = await server.auth('Super Admin');
    countryId = (
      await call('POST', 'countries', { name: 'India', iso2: 'IN', iso3: 'IND', region: 'asia', currency_code: 'INR' })
    ).data.id as number;
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)(
    'are processed from storage at start; one whose file is gone fails with a log line saying so',
    async () => {
      const crashed = await leftProcessing('exports.csv', CSV);
      const gone = await leftProcessing('gone.csv', null);
      await restart();
      expect(await uploadState(crashed)).toMatchObject({
        status: 'published',
        rows_total: 2,
        rows_accepted: 2,
        rows_rejected: 0,
        error: null,
        processed_at: expect.any(String),
      });
      expect(await tradeRecords(crashed)).toBe(2);
      expect(await uploadState(gone)).toMatchObject({
        status: 'failed',
        error: MISSING_FILE_ERROR,
        processed_at: expect.any(String),
      });
      const notifications = await server.db.query<{ message: string }>(
        'SELECT message FROM notifications WHERE user_id = $1',
        [server.userIds.get('admin@example.com')],
      );
      expect(notifications.map((row) => row.message)).toEqual(
        expect.arrayContaining([
          expect.stringContaining('exports.csv</b> is published'),
          expect.stringContaining('gone.csv</b> failed'),
        ]),
      );
    },
  );

  it.skipIf(skip)(
    'are imported once however often they are queued (a restarted instance and a running one may both take one)',
    async () => {
      const id = await leftProcessing('twice.csv', CSV);
      server.app.uploads.enqueue(id);
      server.app.uploads.enqueue(id);
      await restart();
      await server.app.uploads.idle();
      expect(await tradeRecords(id)).toBe(2);
      expect(await uploadState(id)).toMatchObject({ status: 'published', rows_accepted: 2 });
      await restart();
      expect(await tradeRecords(id)).toBe(2);
    },
  );

  it.skipIf(skip)(
    'a stored file that is not the one that was checked (another size, or the same size) is not imported',
    async () => {
      const longer = await leftProcessing('longer.csv', `${CSV}\n2026-09-04,0910,Turmeric,5,KGS,100`);
      const sameSize = CSV.replace('Black pepper,100', 'Black pepper,999');
      expect(sameSize).toHaveLength(CSV.length);
      const swapped = await leftProcessing('swapped.csv', sameSize);
      await restart();
      for (const id of [longer, swapped]) {
        expect(await uploadState(id)).toMatchObject({
          status: 'failed',
          error: CHANGED_FILE_ERROR,
          processed_at: expect.any(String),
        });
        expect(await tradeRecords(id)).toBe(0);
      }
    },
  );

  it.skipIf(skip)(
    'one accepted before the hash of the checked bytes was recorded cannot be verified and is not imported',
    async () => {
      const id = await leftProcessing('legacy.csv', CSV, null);
      await restart();
      expect(await uploadState(id)).toMatchObject({ status: 'failed', error: UNVERIFIABLE_FILE_ERROR });
      expect(await tradeRecords(id)).toBe(0);
    },
  );

  it.skipIf(skip)('the hash column takes only a lowercase hex SHA-256', async () => {
    const insert = (hash: string) =>
      server.db.query(
        'INSERT INTO upload_files (upload_id, declared_size, expires_at, stored_sha256) VALUES (-1, 1, now(), $1)',
        [hash],
      );
    await expect(insert('not-a-hash')).rejects.toThrow();
    await expect(insert(contentHash(Buffer.from(CSV)).toUpperCase())).rejects.toThrow();
  });

  it.skipIf(skip)(
    'a storage that does not answer leaves the upload waiting, not failed; a later attempt imports it',
    async () => {
      const id = await leftProcessing('unreachable.csv', CSV);
      await restart(new UnreachableStorage(server.storage, 1));
      expect(await uploadState(id)).toMatchObject({ status: 'processing', processed_at: null, error: null });
      expect(await tradeRecords(id)).toBe(0);
      await restart();
      expect(await uploadState(id)).toMatchObject({ status: 'published', rows_accepted: 2, error: null });
      expect(await tradeRecords(id)).toBe(2);
      expect(await attempts(id)).toBe(2);
    },
  );

  it.skipIf(skip)(
    'a running instance takes a waiting upload up again every UPLOAD_RETRY_SECONDS, without a restart',
    async () => {
      const id = await leftProcessing('retried.csv', CSV);
      const storage = new UnreachableStorage(server.storage, 1);
      const app = await buildApp({ config: { ...server.config, uploadRetrySeconds: 1 }, db: server.db, storage });
      try {
        await app.ready();
        await app.uploads.idle();
        expect(await uploadState(id)).toMatchObject({ status: 'processing' });
        const deadline = Date.now() + 10_000;
        while ((await uploadState(id)).status === 'processing' && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await uploadState(id)).toMatchObject({ status: 'published', rows_accepted: 2 });
      } finally {
        await app.close();
      }
    },
  );

  it.skipIf(skip)(
    `an import that never succeeds is failed at its ${MAX_IMPORT_ATTEMPTS}th attempt, saying so, with nothing imported`,
    async () => {
      const id = await leftProcessing('never.csv', CSV);
      const storage = new UnreachableStorage(server.storage, Number.POSITIVE_INFINITY);
      for (let attempt = 1; attempt < MAX_IMPORT_ATTEMPTS; attempt += 1) await restart(storage);
      expect(await uploadState(id)).toMatchObject({ status: 'processing', processed_at: null });
      await restart(storage);
      expect(await uploadState(id)).toMatchObject({
        status: 'failed',
        error: GAVE_UP_ERROR,
        processed_at: expect.any(String),
      });
      expect(await attempts(id)).toBe(MAX_IMPORT_ATTEMPTS);
      expect(await tradeRecords(id)).toBe(0);
      await restart();
      expect(await tradeRecords(id)).toBe(0);
    },
  );

  it.skipIf(skip)(
    'a stopping instance starts none of its queued uploads: they stay waiting for any instance',
    async () => {
      const first = await leftProcessing('queued-1.csv', CSV);
      const second = await leftProcessing('queued-2.csv', CSV);
      const app = await buildApp({ config: server.config, db: server.db, storage: server.storage });
      await app.close();
      app.uploads.enqueue(first);
      app.uploads.enqueue(second);
      await app.uploads.idle();
      for (const id of [first, second])
        expect(await uploadState(id)).toMatchObject({ status: 'processing', processed_at: null });
      await restart();
      for (const id of [first, second]) expect(await uploadState(id)).toMatchObject({ status: 'published' });
    },
  );
});
