import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { until } from '../../testing/until.ts';
import { SEARCH_TOO_LONG } from './tradeReport.ts';
import { tusRequests, type UploadTicket } from '../uploads/testing/tusRequests.ts';

const databases = await testDatabases();

interface Page {
  data: Array<{
    id: number;
    upload_id: number;
    shipment_date: string;
    product_description: string;
    country_id: number;
    period: string;
  }>;
  meta: {
    total: number;
    total_is_estimate: boolean;
    page_size: number;
    next: string | null;
    previous: string | null;
    export_in_background: boolean;
  };
}
interface ExportJob {
  id: number;
  status: string;
  rows_estimated: number;
  rows_written: number;
  file: string | null;
}

/** `rows` shipments of one month, several a day (so the id decides between them), every fourth one saffron. */
function monthCsv(period: string, rows: number, product = 'Black pepper'): string {
  const lines = Array.from({ length: rows }, (_, index) => {
    const day = String(1 + (index % 28)).padStart(2, '0');
    const name = index % 4 === 0 ? `Saffron threads lot ${index}` : `${product} lot ${index}`;
    return `${period}-${day},0904,${name},${index + 1},KGS,${(index + 1) * 10}`;
  });
  return ['shipment_date,hs_code,product_description,quantity,unit,value', ...lines].join('\n');
}

/** Waits, without a fixed sleep, until `check` holds: each try after the event loop has turned. */

describe.each(databases)('the uploaded-data report at scale on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let operator: Record<string, string>;
  const countries: Record<string, number> = {};
  const uploads: Record<string, number> = {};
  const request = (method: 'GET' | 'POST', url: string, headers: Record<string, string> = admin, payload?: object) =>
    server.app.inject({
      method,
      url: url.startsWith('/') ? url : `/api/v1/${url}`,
      headers,
      ...(payload ? { payload } : {}),
    });
  const page = async (query: string, headers = admin): Promise<Page> => {
    const response = await request('GET', `uploaded-data-report?${query}`, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Page;
  };
  const count = async (where: string, params: unknown[] = []) =>
    Number(
      (await server.db.query<{ n: number }>(`SELECT count(*) AS n FROM trade_records WHERE ${where}`, params))[0]!.n,
    );

  /** An upload as the console makes it: announced, its file sent to the signed URL (tus), completed, imported. */
  const upload = async (country: string, direction: string, period: string, csv: string) => {
    const announced = await request('POST', 'uploads', admin, {
      country_id: countries[country],
      trade_direction: direction,
      period,
      file_name: `${country}-${period}.csv`,
      size: csv.length,
    });
    expect(announced.statusCode, announced.body).toBe(201);
    const ticket = (announced.json() as { data: UploadTicket }).data;
    await tusRequests(server.app).sendFile(ticket, Buffer.from(csv));
    const completed = await request('POST', ticket.complete_path, admin, {});
    expect(completed.statusCode, completed.body).toBe(200);
    await server.app.uploads.idle();
    return ticket.upload.id;
  };
  /** Every page from the first, by `next`; then back by `previous` to the first. */
  const walk = async (query: string, size: number, between: (pageNumber: number) => Promise<void> = async () => {}) => {
    const forward: Page[] = [await page(`${query}&_page_size=${size}`)];
    while (forward.at(-1)!.meta.next) {
      await between(forward.length);
      forward.push(await page(`${query}&_page_size=${size}&_after=${forward.at(-1)!.meta.next}`));
    }
    const backward: Page[] = [forward.at(-1)!];
    while (backward.at(-1)!.meta.previous)
      backward.push(await page(`${query}&_page_size=${size}&_before=${backward.at(-1)!.meta.previous}`));
    return { forward, backward };
  };

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind, { reportExport: { batchRows: 7, partRows: 50, keptHours: 24 } });
    admin = await server.auth('Super Admin');
    operator = await server.auth('Data Operator');
    for (const [name, iso2, iso3] of [
      ['India', 'IN', 'IND'],
      ['Germany', 'DE', 'DEU'],
    ] as const) {
      const created = await request('POST', 'countries', admin, {
        name,
        iso2,
        iso3,
        region: 'asia',
        currency_code: 'INR',
      });
      expect(created.statusCode, created.body).toBe(201);
      countries[name] = (created.json() as { data: { id: number } }).data.id;
    }
    uploads.india = await upload('India', 'export', '2026-01', monthCsv('2026-01', 120));
    uploads.germany = await upload('Germany', 'import', '2026-02', monthCsv('2026-02', 80, 'Turmeric'));
    // Records of no upload table of their own (written before uploads had one) go to the month's default partition.
    await server.db.query(
      `INSERT INTO trade_records (upload_id, country_id, trade_direction, period, shipment_date, hs_code, product_description, quantity, unit, value)
       SELECT 999999, $1, 'export', '2026-01', DATE '2026-01-15', '0904', 'Old pepper ' || n, n, 'KGS', n FROM generate_series(1, 5) AS n`,
      [countries.India],
    );
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)(
    "totals are exact from the uploads' counts (and the default partitions' records) for every filter without a search",
    async () => {
      const shapes: Array<[string, string, unknown[]]> = [
        ['', 'true', []],
        [`country_id=${countries.India}`, 'country_id = $1', [countries.India]],
        [
          `country_id=${countries.Germany}&trade_direction=import`,
          `country_id = $1 AND trade_direction = 'import'`,
          [countries.Germany],
        ],
        ['trade_direction=export', `trade_direction = 'export'`, []],
        ['period=2026-01', `period = '2026-01'`, []],
        [`upload_id=${uploads.germany}`, 'upload_id = $1', [uploads.germany]],
        ['period=2025-12', `period = '2025-12'`, []],
      ];
      for (const [query, where, params] of shapes) {
        const { meta, data } = await page(query);
        expect(meta, query).toMatchObject({
          total: await count(where, params),
          total_is_estimate: false,
          page_size: 20,
          previous: null,
          export_in_background: false,
        });
        expect(data.length, query).toBe(Math.min(20, meta.total));
      }
      expect((await page('')).meta.total).toBe(205);
    },
  );

  it.skipIf(skip)('a search answers an estimate, "about N", unless its first page holds every match', async () => {
    const searched = await page('q=saffron&_page_size=10');
    expect(searched.meta.total_is_estimate).toBe(true);
    expect(searched.meta.total).toBeGreaterThan(0);
    expect(searched.data.every((row) => row.product_description.startsWith('Saffron'))).toBe(true);
    const few = await page('q=old%20pepper%203');
    expect(few.meta).toMatchObject({ total: 1, total_is_estimate: false, next: null });
  });

  it.skipIf(skip)("a search within a month finds exactly the month's matching records, newest first", async () => {
    const { forward } = await walk('period=2026-02&q=SAFFRON', 6);
    const ids = forward.flatMap((one) => one.data.map((row) => row.id));
    const expected = await server.db.query<{ id: number }>(
      `SELECT id FROM trade_records WHERE period = '2026-02' AND lower(product_description) LIKE '%saffron%' ORDER BY shipment_date DESC, id DESC`,
    );
    expect(ids).toEqual(expected.map((row) => Number(row.id)));
    expect(ids).toHaveLength(20);
  });

  it.skipIf(skip)(
    'pages by keyset forward and back with no record twice and none missed while another upload is published',
    async () => {
      const before = await server.db.query<{ id: number }>(
        'SELECT id FROM trade_records ORDER BY shipment_date DESC, id DESC',
      );
      const { forward, backward } = await walk('', 17, async (pageNumber) => {
        // A month whose shipments fall between the pages already read and those still to come.
        if (pageNumber === 2)
          uploads.added = await upload('Germany', 'export', '2026-01', monthCsv('2026-01', 30, 'Cumin'));
      });
      const seen = forward.flatMap((one) => one.data.map((row) => row.id));
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.filter((id) => !before.some((row) => Number(row.id) === id))).not.toHaveLength(0);
      for (const row of before) expect(seen).toContain(Number(row.id));
      const positions = forward.flatMap((one) =>
        one.data.map((row) => `${row.shipment_date}|${String(row.id).padStart(12, '0')}`),
      );
      expect(positions).toEqual([...positions].sort().reverse());
      // Back from the last page: every page again, in the other order, the first page's previous cursor null.
      expect(backward.at(-1)!.meta.previous).toBeNull();
      expect(backward.flatMap((one) => one.data.map((row) => row.id)).sort()).toEqual([...seen].sort());
      const [firstAgain] = backward.slice(-1);
      expect(firstAgain!.data.map((row) => row.id)).toEqual(seen.slice(0, firstAgain!.data.length));
      expect(forward[0]!.meta.previous).toBeNull();
      expect(forward.at(-1)!.meta.next).toBeNull();
    },
  );

  it.skipIf(skip || kind !== 'postgres')(
    'a search that runs past its time is stopped, answering 400 on q (PostgreSQL)',
    async () => {
      // The month's records held by another transaction: the search waits, and its statement timeout ends the wait.
      await server.db.transaction(async (tx) => {
        await tx.exec(`LOCK TABLE trade_records_upload_${uploads.india} IN ACCESS EXCLUSIVE MODE`);
        const stopped = await request('GET', 'uploaded-data-report?period=2026-01&q=saffron');
        expect(stopped.statusCode).toBe(400);
        expect((stopped.json() as { errors: Record<string, string> }).errors).toEqual({ q: SEARCH_TOO_LONG });
      });
    },
  );

  it.skipIf(skip)(
    "each record names its upload, and an upload's records are the report filtered by it, as many as it accepted",
    async () => {
      const records = await page(`upload_id=${uploads.india}&_page_size=100`);
      const log = (await request('GET', `uploads/${uploads.india}`)).json() as { data: { rows_accepted: number } };
      expect(records.meta).toMatchObject({ total: log.data.rows_accepted, total_is_estimate: false });
      expect(records.meta.total).toBe(120);
      expect(new Set(records.data.map((row) => row.upload_id))).toEqual(new Set([uploads.india]));
    },
  );

  it.skipIf(skip)('refuses a cursor it did not give, and both directions at once, naming the field', async () => {
    const bad = await request('GET', 'uploaded-data-report?_after=bm90LWEtY3Vyc29y');
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as { errors: Record<string, string> }).errors).toHaveProperty('_after');
    const { meta } = await page('_page_size=5');
    const both = await request('GET', `uploaded-data-report?_after=${meta.next}&_before=${meta.next}`);
    expect(both.statusCode).toBe(400);
    expect((both.json() as { errors: Record<string, string> }).errors).toHaveProperty('_before');
    expect((await request('GET', 'uploaded-data-report?_page=2')).statusCode).toBe(400);
  });

  it.skipIf(skip)(
    'a background export runs to completion with progress, and only its requester downloads it',
    async () => {
      const started = await request('POST', 'uploaded-data-report/exports', operator, { country_id: countries.India });
      expect(started.statusCode, started.body).toBe(202);
      const job = (started.json() as { data: ExportJob }).data;
      expect(job).toMatchObject({ rows_estimated: 125, file: null });
      const status = () =>
        request('GET', `uploaded-data-report/exports/${job.id}`, operator).then(
          (response) => (response.json() as { data: ExportJob }).data,
        );
      const done = await until(
        async () => {
          const value = await status();
          return value.status === 'completed' || value.status === 'failed' ? value : null;
        },
        'the export',
        20_000,
      );
      expect(done).toMatchObject({
        status: 'completed',
        rows_written: 125,
        file: `uploaded-data-report/exports/${job.id}/file`,
      });
      const [{ parts }] = (await server.db.query<{ parts: number }>('SELECT parts FROM report_exports WHERE id = $1', [
        job.id,
      ])) as [{ parts: number }];
      expect(parts).toBe(3);
      const file = await request('GET', done.file!, operator);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-disposition']).toBe(`attachment; filename="uploaded-data-${job.id}.csv"`);
      const streamed = await request('GET', `uploaded-data-report/export?country_id=${countries.India}`, operator);
      expect(file.body).toBe(streamed.body);
      expect(file.body.trimEnd().split('\r\n')).toHaveLength(126);

      const refusals: Array<[string, Record<string, string>, number]> = [
        [`/api/v1/uploaded-data-report/exports/${job.id}/file`, {}, 401],
        [`/api/v1/uploaded-data-report/exports/${job.id}`, {}, 401],
        [`/api/v1/uploaded-data-report/exports/${job.id}/file`, await server.auth('Read Only'), 403],
        [`/api/v1/uploaded-data-report/exports/${job.id}/file`, await server.auth('Sales Executive'), 403],
        [`/api/v1/uploaded-data-report/exports/${job.id}/file`, admin, 404],
        [`/api/v1/uploaded-data-report/exports/${job.id}`, admin, 404],
        [`/api/v1/uploaded-data-report/%65xports/${job.id}/file`, {}, 401],
        [`/api/v1/uploaded-data-report/%65xports/${job.id}/file`, await server.auth('Read Only'), 403],
        [`/api/v1/uploaded-data-report/%65xports/${job.id}/%66ile`, admin, 404],
        [`/%61pi/v1/uploaded-data-report/exports/${job.id}/file`, {}, 401],
        [`/api/v1/uploaded-data-report/EXPORTS/${job.id}/file`, operator, 404],
        [`/api/v1/uploaded-data-report/exports/${job.id}x/file`, operator, 400],
      ];
      for (const [url, headers, expected] of refusals) {
        const refused: LightMyRequestResponse = await request('GET', url, headers);
        expect(refused.statusCode, url).toBe(expected);
        expect(refused.body, url).not.toContain('Saffron');
      }
      expect(
        (await request('POST', 'uploaded-data-report/exports', await server.auth('Read Only'), {})).statusCode,
      ).toBe(403);
      expect((await request('POST', 'uploaded-data-report/exports', {}, {})).statusCode).toBe(401);
      expect((await request('GET', `uploaded-data-report/exports/${job.id}/file`, operator)).statusCode).toBe(200);

      // Kept for its requester a while, then removed with its files by the periodic cleanup.
      const stored = [...server.storage.files.keys()].filter((key) => key.startsWith(`report-exports/${job.id}/`));
      expect(stored).toHaveLength(3);
      await server.db.query(`UPDATE report_exports SET finished_at = now() - interval '25 hours' WHERE id = $1`, [
        job.id,
      ]);
      expect(await server.app.reportExports.removeOld()).toBe(1);
      expect([...server.storage.files.keys()].filter((key) => key.startsWith(`report-exports/${job.id}/`))).toEqual([]);
      expect((await request('GET', `uploaded-data-report/exports/${job.id}`, operator)).statusCode).toBe(404);
    },
  );

  it.skipIf(skip)('an export still being written answers 409 for its file', async () => {
    const [queued] = await server.db.query<{ id: number }>(
      `INSERT INTO report_exports (user_id, filter, rows_estimated, status, claimed_until)
       SELECT id, '{}', 10, 'running', now() + interval '1 hour' FROM users WHERE email = 'operator@example.com' RETURNING id`,
    );
    const early = await request('GET', `uploaded-data-report/exports/${queued!.id}/file`, operator);
    expect(early.statusCode).toBe(409);
  });

  it.skipIf(skip)(
    'the streamed export has no cap: more keyset batches than the old 4,000, every record once',
    async () => {
      // One record a batch, so a small table takes more batches than the old export's limit allowed.
      const oneByOne = await buildApp({
        config: { ...server.config, reportExport: { ...server.config.reportExport, batchRows: 1 } },
        db: server.db,
        storage: server.storage,
      });
      try {
        await server.db.query(
          `INSERT INTO trade_records (upload_id, country_id, trade_direction, period, shipment_date, hs_code, product_description, quantity, unit, value)
         SELECT 999998, NULL, 'import', '2027-03', DATE '2027-03-01' + (n % 28), '1006', '=HYPERLINK("x") ' || n, n, 'TON', n FROM generate_series(1, 4100) AS n`,
        );
        const exported = await oneByOne.inject({
          method: 'GET',
          url: '/api/v1/uploaded-data-report/export?period=2027-03',
          headers: admin,
        });
        expect(exported.statusCode).toBe(200);
        const lines = exported.body.trimEnd().split('\r\n');
        expect(lines).toHaveLength(4101);
        expect(new Set(lines.slice(1).map((line) => line.split(',')[0])).size).toBe(4100);
        // A cell a spreadsheet would run as a formula is quoted and prefixed.
        expect(lines[1]).toContain(`"'=HYPERLINK(""x"") `);
      } finally {
        await oneByOne.close();
      }
    },
  );
});
