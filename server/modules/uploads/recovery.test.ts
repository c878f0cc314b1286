import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { CHANGED_FILE_ERROR, MISSING_FILE_ERROR, UNVERIFIABLE_FILE_ERROR, setUploadState } from './processor.ts';
import { contentHash } from './storage.ts';
import { TRADE_CSV } from './testing/tradeCsv.ts';

const databases = await testDatabases();

const CSV = TRADE_CSV;

describe.each(databases)('uploads left processing by a stopped server, on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let countryId: number;

  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await server.app.inject({ method, url: `/api/v1/${url}`, headers: admin, ...(payload === undefined ? {} : { payload }) });
    return response.json() as { data: Record<string, unknown> };
  };
  const uploadState = async (id: number) => ((await call('GET', `uploads/${id}/log`)).data as { upload: Record<string, unknown> }).upload;
  const tradeRecords = async (id: number) => (await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM trade_records WHERE upload_id = $1', [id]))[0]!.count;

  /**
   * An upload as a crash mid-import leaves it: file stored and accepted (CSV checked, its hash recorded; `file` is
   * what storage holds now), status processing, the import rolled back.
   */
  const leftProcessing = async (fileName: string, file: string | null, checkedHash: string | null = contentHash(Buffer.from(CSV))) => {
    const created = await call('POST', 'uploads', { country_id: countryId, trade_direction: 'export', period: '2026-09', file_name: fileName, size: CSV.length });
    const id = (created.data.upload as { id: number }).id;
    const key = `uploads/${id}-00000000deadbeef.csv`;
    if (file !== null) await server.storage.put(key, Buffer.from(file));
    await server.db.query('UPDATE upload_files SET stored_at = now(), storage_key = $2, stored_size = $3, stored_sha256 = $4 WHERE upload_id = $1', [id, key, CSV.length, checkedHash]);
    await setUploadState(server.db, id, { status: 'processing' });
    return id;
  };
  /** The server starting again on the same database and storage. */
  const restart = async () => {
    const app = await buildApp({ config: server.config, db: server.db, storage: server.storage });
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
    admin = await server.auth('Super Admin');
    countryId = (await call('POST', 'countries', { name: 'India', iso2: 'IN', iso3: 'IND', region: 'asia', currency_code: 'INR' })).data.id as number;
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)('are processed from storage at start; one whose file is gone fails with a log line saying so', async () => {
    const crashed = await leftProcessing('exports.csv', CSV);
    const gone = await leftProcessing('gone.csv', null);
    await restart();
    expect(await uploadState(crashed)).toMatchObject({ status: 'completed', rows_total: 2, rows_accepted: 2, rows_rejected: 0, error: null, processed_at: expect.any(String) });
    expect(await tradeRecords(crashed)).toBe(2);
    expect(await uploadState(gone)).toMatchObject({ status: 'failed', error: MISSING_FILE_ERROR, processed_at: expect.any(String) });
    const notifications = await server.db.query<{ message: string }>('SELECT message FROM notifications WHERE user_id = $1', [server.userIds.get('admin@example.com')]);
    expect(notifications.map((row) => row.message)).toEqual(expect.arrayContaining([expect.stringContaining('exports.csv</b> is processed'), expect.stringContaining('gone.csv</b> failed')]));
  });

  it.skipIf(skip)('are imported once however often they are queued (a restarted instance and a running one may both take one)', async () => {
    const id = await leftProcessing('twice.csv', CSV);
    server.app.uploads.enqueue(id);
    server.app.uploads.enqueue(id);
    await restart();
    await server.app.uploads.idle();
    expect(await tradeRecords(id)).toBe(2);
    expect(await uploadState(id)).toMatchObject({ status: 'completed', rows_accepted: 2 });
    await restart();
    expect(await tradeRecords(id)).toBe(2);
  });

  it.skipIf(skip)('a stored file that is not the one that was checked (another size, or the same size) is not imported', async () => {
    const longer = await leftProcessing('longer.csv', `${CSV}\n2026-09-04,0910,Turmeric,5,KGS,100`);
    const sameSize = CSV.replace('Black pepper,100', 'Black pepper,999');
    expect(sameSize).toHaveLength(CSV.length);
    const swapped = await leftProcessing('swapped.csv', sameSize);
    await restart();
    for (const id of [longer, swapped]) {
      expect(await uploadState(id)).toMatchObject({ status: 'failed', error: CHANGED_FILE_ERROR, processed_at: expect.any(String) });
      expect(await tradeRecords(id)).toBe(0);
    }
  });

  it.skipIf(skip)('one accepted before the hash of the checked bytes was recorded cannot be verified and is not imported', async () => {
    const id = await leftProcessing('legacy.csv', CSV, null);
    await restart();
    expect(await uploadState(id)).toMatchObject({ status: 'failed', error: UNVERIFIABLE_FILE_ERROR });
    expect(await tradeRecords(id)).toBe(0);
  });

  it.skipIf(skip)('the hash column takes only a lowercase hex SHA-256', async () => {
    const insert = (hash: string) => server.db.query('INSERT INTO upload_files (upload_id, declared_size, expires_at, stored_sha256) VALUES (-1, 1, now(), $1)', [hash]);
    await expect(insert('not-a-hash')).rejects.toThrow();
    await expect(insert(contentHash(Buffer.from(CSV)).toUpperCase())).rejects.toThrow();
  });
});
