import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { until } from '../../testing/until.ts';
import { CANCELLED_ERROR } from './importErrors.ts';
import { setUploadState } from './uploadState.ts';
import { ABANDONED_ERROR, endAbandonedUploads } from './abandonedUploads.ts';
import { contentHash } from './storage.ts';
import { CHANGED_FILE_ERROR, MAX_LINE_BYTES } from './tradeFile.ts';
import { TRADE_CSV, TRADE_CSV_WITH_REJECTS, nextPeriod, shipmentsCsv } from './testing/tradeCsv.ts';
import { publishEveryImport } from './testing/reviewSettings.ts';

const databases = await testDatabases();

interface Log {
  upload: Record<string, unknown>;
  progress: Record<string, unknown> | null;
  rejected: Array<{ line: number; reason: string }>;
}

describe.each(databases)('trade files imported by streaming into month partitions, on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let countryId: number;

  const call = (method: 'GET' | 'POST', url: string, headers = admin, payload?: object) =>
    server.app.inject({ method, url: `/api/v1/${url}`, headers, ...(payload === undefined ? {} : { payload }) });
  const log = async (id: number) => ((await call('GET', `uploads/${id}/log`)).json() as { data: Log }).data;
  const records = async (id: number) =>
    (
      await server.db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM trade_records WHERE upload_id = $1',
        [id],
      )
    )[0]!.count;
  const tableOf = async (id: number) =>
    (
      await server.db.query<{ name: string | null }>('SELECT to_regclass($1)::text AS name', [
        `trade_records_upload_${id}`,
      ])
    )[0]!.name;

  /** An upload whose file has fully arrived (what the file transfer records), queued for its import as it queues it. */
  const arrived = async (
    file: Buffer,
    options: { period?: string; size?: number; replace?: boolean; start?: boolean } = {},
  ) => {
    const period = options.period ?? nextPeriod();
    const created = await call('POST', 'uploads', admin, {
      country_id: countryId,
      trade_direction: 'export',
      period,
      file_name: 'shipments.csv',
      size: file.length,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { data: { upload: { id: number } } }).data.upload.id;
    const key = `uploads/${id}-00000000feedbeef.csv`;
    await server.storage.put(key, file);
    if (options.replace) expect((await call('POST', `uploads/${id}/replace`)).statusCode).toBe(200);
    await server.db.query(
      'UPDATE upload_files SET stored_at = now(), storage_key = $2, stored_size = $3, stored_sha256 = $4 WHERE upload_id = $1',
      [id, key, options.size ?? file.length, contentHash(file)],
    );
    await setUploadState(server.app, server.db, id, { status: 'processing' });
    if (options.start !== false) server.app.uploads.enqueue(id);
    return { id, period };
  };
  const imported = async (file: Buffer, options: { period?: string; size?: number; replace?: boolean } = {}) => {
    const upload = await arrived(file, options);
    await server.app.uploads.idle();
    return upload;
  };

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind, { uploadMaxBytes: 1024 ** 3 });
    await publishEveryImport(server.db);
    admin = await server.auth('Super Admin');
    countryId = (
      (
        await call('POST', 'countries', admin, {
          name: 'Norway',
          iso2: 'NO',
          iso3: 'NOR',
          region: 'europe',
          currency_code: 'NOK',
        })
      ).json() as { data: { id: number } }
    ).data.id;
  }, 180_000);
  afterAll(async () => server?.close());

  it.skipIf(skip)(
    'a plain and a gzip file (told by its bytes, whatever its name) are imported into a table of their upload, attached to the month',
    async () => {
      const plain = await imported(Buffer.from(shipmentsCsv(500, '2026-03')), { period: '2026-03' });
      const gzip = await imported(gzipSync(shipmentsCsv(300, '2026-03')), { period: '2026-03' });
      expect((await log(plain.id)).upload).toMatchObject({
        status: 'published',
        rows_total: 500,
        rows_accepted: 500,
        rows_rejected: 0,
        error: null,
      });
      expect((await log(gzip.id)).upload).toMatchObject({ status: 'published', rows_accepted: 300 });
      expect([await records(plain.id), await records(gzip.id)]).toEqual([500, 300]);
      const tree = await server.db.query<{ name: string; parent: string | null }>(
        `SELECT c.relname AS name, p.relname AS parent FROM pg_partition_tree('trade_records') t JOIN pg_class c ON c.oid = t.relid LEFT JOIN pg_class p ON p.oid = t.parentrelid
        WHERE c.relname = ANY($1)`,
        [[`trade_records_upload_${plain.id}`, `trade_records_upload_${gzip.id}`, 'trade_records_2026_03']],
      );
      expect(tree).toEqual(
        expect.arrayContaining([
          { name: 'trade_records_2026_03', parent: 'trade_records' },
          { name: `trade_records_upload_${plain.id}`, parent: 'trade_records_2026_03' },
          { name: `trade_records_upload_${gzip.id}`, parent: 'trade_records_2026_03' },
        ]),
      );
      const [first] = await server.db.query<Record<string, unknown>>(
        'SELECT * FROM trade_records WHERE upload_id = $1 ORDER BY id LIMIT 1',
        [plain.id],
      );
      expect(first).toMatchObject({
        country_id: countryId,
        trade_direction: 'export',
        period: '2026-03',
        shipment_date: '2026-03-01',
        hs_code: '100000',
        unit: 'KGS',
        quantity: 1.5,
      });
      const progress = (await log(plain.id)).progress;
      expect(progress).toMatchObject({ rows_read: 500, rows_accepted: 500, bytes_read: progress?.bytes_total });
    },
  );

  it.skipIf(skip || kind !== 'postgres')(
    "publishing into a month does not wait for the search index being built on the month's last upload",
    async () => {
      const period = nextPeriod();
      const first = await imported(Buffer.from(shipmentsCsv(30, period)), { period });
      await server.app.uploads.idle(); // its search index, built after it was published
      // A search index built CONCURRENTLY holds this lock on its table for as long as it takes.
      await server.db.transaction(async (tx) => {
        await tx.exec(`LOCK TABLE trade_records_upload_${first.id} IN SHARE UPDATE EXCLUSIVE MODE`);
        // Not waiting for the processor to be idle: the index then built on this upload waits for this transaction.
        const second = await arrived(Buffer.from(shipmentsCsv(20, period)), { period });
        await until(async () => (await log(second.id)).upload.status === 'published', 'the second upload published');
        expect((await log(second.id)).upload).toMatchObject({ status: 'published', rows_accepted: 20 });
      });
      await server.app.uploads.idle();
    },
  );

  it.skipIf(skip || kind !== 'postgres')(
    "an import queued while the last upload's search index is being built does not wait for the build",
    async () => {
      const period = nextPeriod();
      const published = async (id: number) =>
        until(async () => (await log(id)).upload.status === 'published', `upload ${id} published`);
      const building = async (id: number) =>
        (
          await server.db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_progress_create_index WHERE relid = to_regclass($1)',
            [`trade_records_upload_${id}`],
          )
        )[0]!.n === 1;
      // A snapshot older than the build holds it (CONCURRENTLY waits for older snapshots) until this transaction ends.
      await server.db.transaction(async (tx) => {
        await tx.exec('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        await tx.query('SELECT count(*) FROM data_uploads');
        const first = await arrived(Buffer.from(shipmentsCsv(30, period)), { period });
        await published(first.id);
        await until(() => building(first.id), "the first upload's search index being built");
        const second = await arrived(Buffer.from(shipmentsCsv(20, period)), { period });
        await published(second.id);
        expect(await building(first.id)).toBe(true);
      });
      await server.app.uploads.idle();
    },
  );

  it.skipIf(skip)(
    'a deleted upload takes its records with it: its table is dropped, not emptied row by row, and its month keeps the others',
    async () => {
      const period = nextPeriod();
      const kept = await imported(Buffer.from(shipmentsCsv(40, period)), { period });
      const deleted = await imported(Buffer.from(shipmentsCsv(60, period)), { period });
      expect(await tableOf(deleted.id)).toBe(`trade_records_upload_${deleted.id}`);
      const version = ((await call('GET', `uploads/${deleted.id}`)).json() as { data: { version: number } }).data
        .version;
      const removed = await server.app.inject({
        method: 'DELETE',
        url: `/api/v1/uploads/${deleted.id}`,
        headers: { ...admin, 'if-match': `"${version}"` },
      });
      expect(removed.statusCode, removed.body).toBe(200);
      expect(await tableOf(deleted.id)).toBeNull();
      expect([await records(deleted.id), await records(kept.id)]).toEqual([0, 40]);
    },
  );

  it.skipIf(skip)(
    'rejected rows are kept with their line, reason and fields, and download as CSV with formulas defused',
    async () => {
      const file = `${TRADE_CSV_WITH_REJECTS}\n=1+1,0910,Turmeric,5,KGS,10,,`;
      const { id } = await imported(Buffer.from(file));
      expect((await log(id)).upload).toMatchObject({
        status: 'published',
        rows_total: 5,
        rows_accepted: 2,
        rows_rejected: 3,
      });
      const download = await call('GET', `uploads/${id}/rejections.csv`);
      expect(download.headers['content-type']).toContain('text/csv');
      const lines = download.body.trim().split('\r\n');
      expect(lines[0]).toBe('line,reason,row');
      expect(lines[1]).toBe('3,"hs_code must be 2 to 10 digits, got ""09x4""","2026-09-02,09x4,Bad code,5,KGS,10,,"');
      expect(lines[3]).toBe(
        `6,"shipment_date must be a date as YYYY-MM-DD, got ""=1+1""","'=1+1,0910,Turmeric,5,KGS,10,,"`,
      );
    },
  );

  it.skipIf(skip)(
    'numbers grouped as the console shows them (48,00,000, 1,23,456.50) or the western way are imported as their values; a quoted field keeps its commas',
    async () => {
      const file = [
        'shipment_date,hs_code,product_description,quantity,unit,value',
        '2026-09-01,0904,"Pepper, black","48,00,000",KGS,"1,23,456.50"',
        '2026-09-02,1006,Rice,"4,800,000",TON,"1,000"',
        '2026-09-03,1006,Rice,"12,34",TON,10',
      ].join('\n');
      const { id } = await imported(Buffer.from(file));
      expect((await log(id)).upload).toMatchObject({
        status: 'published',
        rows_total: 3,
        rows_accepted: 2,
        rows_rejected: 1,
      });
      expect((await log(id)).rejected).toEqual([
        { line: 4, reason: 'quantity must be a number of zero or more (1234.5, 4,800,000 or 48,00,000), got "12,34"' },
      ]);
      const stored = await server.db.query<{ product_description: string; quantity: number; value: number }>(
        'SELECT product_description, quantity, value FROM trade_records WHERE upload_id = $1 ORDER BY shipment_date',
        [id],
      );
      expect(stored).toEqual([
        { product_description: 'Pepper, black', quantity: 4_800_000, value: 123_456.5 },
        { product_description: 'Rice', quantity: 4_800_000, value: 1000 },
      ]);
    },
  );

  const badFiles: Array<[string, () => Buffer, RegExp | string]> = [
    [
      'a truncated gzip',
      () => gzipSync(shipmentsCsv(2000, '2026-04')).subarray(0, 3000),
      /gzip-compressed but cannot be decompressed \(it is cut short\)/,
    ],
    [
      'a file that is not UTF-8',
      () =>
        Buffer.concat([
          Buffer.from(`${TRADE_CSV}\n2026-09-04,0910,Caf`),
          Buffer.from([0xe9]),
          Buffer.from(',5,KGS,10\n'),
        ]),
      /not UTF-8 text/,
    ],
    [
      'an unclosed quote',
      () => Buffer.from(`${TRADE_CSV}\n2026-09-04,0910,"Turmeric,5,KGS,10\n2026-09-05,0910,Ginger,5,KGS,10\n`),
      /quote that is never closed/,
    ],
    [
      'a 10 MB line',
      () => Buffer.from(`${TRADE_CSV}\n2026-09-04,0910,${'x'.repeat(10 * 1024 * 1024)},5,KGS,10\n`),
      `Line 4 of the file is longer than ${MAX_LINE_BYTES / 1024 / 1024} MB, which no trade row is.`,
    ],
    [
      'a header of a million columns',
      () => Buffer.from(`${Array.from({ length: 1_000_000 }, (_, index) => `c${index}`).join(',')}\n1,2\n`),
      /Line 1 of the file is longer than/,
    ],
    [
      'a wrong header',
      () => Buffer.from('date,code,description\n2026-09-01,0904,Pepper\n'),
      /header does not match the configured data columns: missing column\(s\): shipment_date, hs_code.*unknown column\(s\): date, code, description/,
    ],
  ];

  it.skipIf(skip).each(badFiles)(
    '%s ends the upload as failed with the reason, nothing imported, and the server goes on serving',
    async (_name, file, reason) => {
      const { id } = await imported(file());
      const { upload } = await log(id);
      expect(upload).toMatchObject({ status: 'failed', processed_at: expect.any(String) });
      expect(upload.error).toMatch(reason);
      expect(await records(id)).toBe(0);
      expect(await tableOf(id)).toBeNull();
      expect((await call('GET', 'uploads?_page=1&_page_size=5')).statusCode).toBe(200);
    },
  );

  it.skipIf(skip)('a file whose recorded size is not its size is not imported (longer or shorter)', async () => {
    const file = Buffer.from(shipmentsCsv(50, '2026-05'));
    for (const size of [file.length - 10, file.length + 10]) {
      const { id } = await imported(file, { size });
      expect((await log(id)).upload).toMatchObject({ status: 'failed', error: CHANGED_FILE_ERROR });
      expect(await records(id)).toBe(0);
    }
  });

  it.skipIf(skip)(
    'progress is written while the import runs, readable outside it; a cancel rolls everything back and marks the upload cancelled',
    async () => {
      // The storage delivers the first half of the file, then holds the rest back until the test lets it go.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const read = server.storage.read.bind(server.storage);
      server.storage.read = async (key) => {
        const data = await server.storage.get(key);
        return Readable.from(
          (async function* () {
            yield data.subarray(0, data.length / 2);
            await held;
            yield data.subarray(data.length / 2);
          })(),
        );
      };
      try {
        const { id } = await arrived(Buffer.from(shipmentsCsv(20_000, '2026-06')), { period: '2026-06' });
        const running = await until(async () => {
          const { upload, progress } = await log(id);
          return upload.status === 'processing' && progress && Number(progress.rows_read) > 0 ? progress : null;
        }, 'progress of the running import');
        expect(Number(running.rows_read)).toBeLessThan(20_000);
        expect(Number(running.bytes_read)).toBe(Math.floor(Number(running.bytes_total) / 2));
        expect(running).toMatchObject({
          rows_rejected: 0,
          cancel_requested: false,
          rows_per_second: expect.any(Number),
          seconds_left: expect.any(Number),
        });
        const list = (await call('GET', `uploads/progress?ids=${id},999999`)).json() as {
          data: Array<Record<string, unknown>>;
        };
        expect(list.data).toEqual([
          expect.objectContaining({ upload_id: id, status: 'processing', rows_read: running.rows_read }),
        ]);
        expect((await call('GET', 'uploads/progress?ids=1;DROP')).statusCode).toBe(400);
        // Neither a user without upload rights nor a read-only one may cancel it.
        expect((await call('POST', `uploads/${id}/cancel`, await server.auth('Sales Executive'), {})).statusCode).toBe(
          403,
        );
        expect((await call('POST', `uploads/${id}/cancel`, await server.auth('Read Only'), {})).statusCode).toBe(403);
        expect((await server.app.inject({ method: 'POST', url: `/api/v1/uploads/${id}/cancel` })).statusCode).toBe(401);
        expect((await call('POST', `uploads/${id}/cancel`, admin, {})).statusCode).toBe(202);
        await until(async () => (await log(id)).progress?.cancel_requested, 'the cancel seen by the import');
        release();
        await server.app.uploads.idle();
        expect((await log(id)).upload).toMatchObject({
          status: 'cancelled',
          error: CANCELLED_ERROR,
          processed_at: expect.any(String),
        });
        expect(await records(id)).toBe(0);
        expect(await tableOf(id)).toBeNull();
        // The list that follows its running uploads sees this one end.
        expect(((await call('GET', `uploads/progress?ids=${id}`)).json() as { data: unknown[] }).data).toEqual([
          expect.objectContaining({ upload_id: id, status: 'cancelled' }),
        ]);
        expect((await call('POST', `uploads/${id}/cancel`, admin, {})).statusCode).toBe(409);
        expect((await call('POST', 'uploads/999999/%63ancel', admin, {})).statusCode).toBe(404);
      } finally {
        release();
        server.storage.read = read;
      }
    },
  );

  it.skipIf(skip)('an upload cancelled before its import starts is cancelled at once and never imported', async () => {
    const { id } = await arrived(Buffer.from(TRADE_CSV), { start: false });
    expect((await call('POST', `uploads/${id}/cancel`, admin, {})).statusCode).toBe(202);
    expect((await log(id)).upload).toMatchObject({ status: 'cancelled', processed_at: expect.any(String) });
    server.app.uploads.enqueue(id);
    await server.app.uploads.idle();
    expect(await records(id)).toBe(0);
  });

  it.skipIf(skip)(
    'a corrected file confirmed to replace the published month replaces it: a reader sees the old rows or the new ones, never a mix or both',
    async () => {
      const period = '2026-07';
      const first = await imported(Buffer.from(shipmentsCsv(20_000, period)), { period });
      expect(await records(first.id)).toBe(20_000);
      const monthCount = async () =>
        (
          await server.db.query<{ count: number }>(
            'SELECT count(*)::int AS count FROM trade_records WHERE period = $1 AND country_id = $2',
            [period, countryId],
          )
        )[0]!.count;
      const second = await arrived(Buffer.from(shipmentsCsv(30_000, period)), { period, replace: true });
      const seen = new Set<number>();
      let done = false;
      const importing = server.app.uploads.idle().then(() => {
        done = true;
      });
      while (!done) {
        seen.add(await monthCount());
        // Embedded PGlite answers without ever leaving the microtask queue: let the import's streams move between counts.
        await new Promise((resolve) => setImmediate(resolve));
      }
      await importing;
      seen.add(await monthCount());
      expect(
        [...seen].every((count) => count === 20_000 || count === 30_000),
        `counts seen: ${[...seen].join(', ')}`,
      ).toBe(true);
      expect(await monthCount()).toBe(30_000);
      expect((await log(first.id)).upload).toMatchObject({ status: 'replaced' });
      expect((await log(second.id)).upload).toMatchObject({ status: 'published', rows_accepted: 30_000 });
      expect(await tableOf(first.id)).toBeNull();
    },
    // 50,000 rows imported while a reader counts without pause: on embedded PGlite both share one session, and on a
    // loaded machine that takes well past the default limit.
    180_000,
  );

  it.skipIf(skip)(
    'an upload whose file never arrives by its expiry ends as abandoned, with the reason; none stays waiting',
    async () => {
      const created = await call('POST', 'uploads', admin, {
        country_id: countryId,
        trade_direction: 'export',
        period: nextPeriod(),
        file_name: 'never.csv',
        size: 100,
      });
      const id = (created.json() as { data: { upload: { id: number } } }).data.upload.id;
      expect(await endAbandonedUploads(server.app)).not.toContain(id);
      await server.db.query("UPDATE upload_files SET expires_at = now() - interval '1 hour' WHERE upload_id = $1", [
        id,
      ]);
      expect(await endAbandonedUploads(server.app)).toContain(id);
      expect((await log(id)).upload).toMatchObject({
        status: 'abandoned',
        error: ABANDONED_ERROR,
        processed_at: expect.any(String),
      });
      expect(await endAbandonedUploads(server.app)).not.toContain(id);
    },
  );

  it.skipIf(skip)("replace is the uploader's to confirm, before the import ends", async () => {
    const { id } = await imported(Buffer.from(TRADE_CSV));
    expect((await call('POST', `uploads/${id}/replace`)).statusCode).toBe(409);
    expect((await call('POST', 'uploads/999999/replace')).statusCode).toBe(404);
    expect((await server.app.inject({ method: 'POST', url: `/api/v1/uploads/${id}/replace` })).statusCode).toBe(401);
    expect((await call('POST', `uploads/${id}/%72eplace`)).statusCode).toBe(409);
  });
});
