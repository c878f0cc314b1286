/** Review before publishing: an import compared with the last published month, held beyond a threshold, published or rejected by a reviewer. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewCheckKey, UploadReview, UploadReviewAnswer } from '../../../contract/uploadReview.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { setUploadState } from './uploadState.ts';
import { contentHash } from './storage.ts';

const databases = await testDatabases();

const HEADER = 'shipment_date,hs_code,product_description,quantity,unit,value,importer,exporter';
const CHAPTERS = ['0904', '1006', '8471', '3004'];
const ROWS = 200;

interface MonthOptions {
  rows?: number;
  chapters?: string[];
  valueFactor?: number;
  quantityFactor?: number;
  /** Multiplies the value of the rows of this HS code only. */
  chapterValue?: { hsCode: string; factor: number };
  rejected?: number;
  outside?: number;
  duplicates?: number;
  noImporter?: number;
  noExporter?: number;
}

/** A month of shipments like the last one, but for what `options` changes. */
function monthCsv(period: string, options: MonthOptions = {}): Buffer {
  const rows = options.rows ?? ROWS;
  const chapters = options.chapters ?? CHAPTERS;
  const lines = [HEADER];
  for (let index = 0; index < rows; index += 1) {
    const day = String((index % 28) + 1).padStart(2, '0');
    const date =
      index < (options.outside ?? 0)
        ? `${Number(period.slice(0, 4)) - 1}${period.slice(4)}-${day}`
        : `${period}-${day}`;
    const hsCode = index < (options.rejected ?? 0) ? 'PEPPER' : chapters[index % chapters.length]!;
    const quantity = (10 + (index % 90)) * (options.quantityFactor ?? 1);
    const chapterFactor = options.chapterValue?.hsCode === hsCode ? options.chapterValue.factor : 1;
    const value = (1000 + index * 7) * (options.valueFactor ?? 1) * chapterFactor;
    const importer = index < (options.noImporter ?? 0) ? '' : `Importer ${index % 13}`;
    const exporter = index < (options.noExporter ?? 0) ? '' : `Exporter ${index % 17}`;
    lines.push(`${date},${hsCode},Shipment ${index},${quantity},KGS,${value},${importer},${exporter}`);
  }
  for (let index = 0; index < (options.duplicates ?? 0); index += 1) lines.push(lines[index + 1]!);
  return Buffer.from(`${lines.join('\n')}\n`);
}

describe.each(databases)(
  'an import is compared with the last published month before customers see it, on $kind',
  ({ kind, skip }) => {
    let server: TestServer;
    let admin: Record<string, string>;
    let operator: Record<string, string>;
    let viewer: Record<string, string>;
    let sales: Record<string, string>;
    let countryId: number;
    let otherCountryId: number;
    let basePublished: number;

    const call = (
      method: 'GET' | 'POST' | 'PUT',
      url: string,
      headers: Record<string, string> = admin,
      payload?: object,
    ) =>
      server.app.inject({
        method,
        url: url.startsWith('/') ? url : `/api/v1/${url}`,
        headers,
        ...(payload === undefined ? {} : { payload }),
      });
    const upload = async (id: number) =>
      ((await call('GET', `uploads/${id}`)).json() as { data: Record<string, unknown> }).data;
    const reviewOf = async (id: number, headers = admin) =>
      ((await call('GET', `uploads/${id}/review`, headers)).json() as { data: UploadReviewAnswer }).data;
    /** The report's first page (the newest 100 records) and how many records match. */
    const report = async (query: string) => {
      const answer = (await call('GET', `uploaded-data-report?${query}&_page_size=100`, operator)).json() as {
        data: Array<{ upload_id: number }>;
        meta: { total: number };
      };
      return { rows: answer.data, total: answer.meta.total, uploads: new Set(answer.data.map((row) => row.upload_id)) };
    };
    const publishedRows = async (country: number) =>
      Number(
        (
          await server.db.query<{ n: number }>(
            "SELECT coalesce(sum(rows_accepted), 0)::int AS n FROM data_uploads WHERE country_id = $1 AND status = 'published'",
            [country],
          )
        )[0]!.n,
      );

    /** Imports a file as the upload flow does once the file has arrived and was accepted, and waits for the import. */
    const imported = async (
      file: Buffer,
      period: string,
      options: { country?: number; replace?: boolean; direction?: string } = {},
    ) => {
      const created = await call('POST', 'uploads', admin, {
        country_id: options.country ?? countryId,
        trade_direction: options.direction ?? 'import',
        period,
        file_name: `${period}.csv`,
        size: file.length,
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = (created.json() as { data: { upload: { id: number } } }).data.upload.id;
      const key = `uploads/${id}-00000000feedbeef.csv`;
      await server.storage.put(key, file);
      if (options.replace) expect((await call('POST', `uploads/${id}/replace`)).statusCode).toBe(200);
      await server.db.query(
        'UPDATE upload_files SET stored_at = now(), storage_key = $2, stored_size = $3, stored_sha256 = $4 WHERE upload_id = $1',
        [id, key, file.length, contentHash(file)],
      );
      await setUploadState(server.app, server.db, id, { status: 'processing' });
      server.app.uploads.enqueue(id);
      await server.app.uploads.idle();
      return id;
    };
    const stored = async (id: number) => {
      const [row] = await server.db.query<{ review: UploadReview | string }>(
        'SELECT review FROM upload_files WHERE upload_id = $1',
        [id],
      );
      return (typeof row!.review === 'string' ? JSON.parse(row!.review) : row!.review) as UploadReview;
    };
    const attached = async (id: number) =>
      (
        await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM trade_records WHERE upload_id = $1', [id])
      )[0]!.n;
    const tableOf = async (id: number) =>
      (
        await server.db.query<{ name: string | null }>('SELECT to_regclass($1)::text AS name', [
          `trade_records_upload_${id}`,
        ])
      )[0]!.name;

    let countries = 0;
    /** A country of its own, so that a test's months are compared with its own history only. */
    const newCountry = async () => {
      const letters = (length: number) =>
        Array.from({ length }, (_, index) =>
          String.fromCharCode(65 + ((countries >> (index * 4)) % 16) + (index === 0 ? 10 : 0)),
        ).join('');
      countries += 1;
      const created = await call('POST', 'countries', admin, {
        name: `Reviewland ${countries}`,
        iso2: letters(2),
        iso3: letters(3),
        region: 'europe',
        currency_code: 'EUR',
      });
      expect(created.statusCode, created.body).toBe(201);
      return (created.json() as { data: { id: number } }).data.id;
    };
    /** A country with one published month (2030-01) to compare with. */
    const withHistory = async () => {
      const country = await newCountry();
      expect(await upload(await imported(monthCsv('2030-01'), '2030-01', { country }))).toMatchObject({
        status: 'published',
      });
      return country;
    };

    beforeAll(async () => {
      if (skip) return;
      server = await startTestServer(kind);
      [admin, operator, viewer, sales] = (await Promise.all(
        ['Super Admin', 'Data Operator', 'Read Only', 'Sales Executive'].map((who) => server.auth(who)),
      )) as [Record<string, string>, Record<string, string>, Record<string, string>, Record<string, string>];
      countryId = await newCountry();
      otherCountryId = await newCountry();
      basePublished = await imported(monthCsv('2030-01'), '2030-01');
    }, 120_000);

    afterAll(async () => {
      await server?.close();
    });

    it.skipIf(skip)(
      'the first month of a country and direction publishes, with the checks that need no history applied',
      async () => {
        expect(await upload(basePublished)).toMatchObject({ status: 'published', rows_accepted: ROWS });
        const review = await stored(basePublished);
        expect(review).toMatchObject({ outcome: 'published', compared_with: null, previous: null, flagged: [] });
        expect(review.checks.filter((check) => check.applied).map((check) => check.key)).toEqual([
          'rejected_share',
          'outside_period_share',
          'duplicate_share',
        ]);
        expect(await attached(basePublished)).toBe(ROWS);

        // A first month that fails a check needing no history waits for review all the same.
        const first = await imported(monthCsv('2030-01', { rejected: 40 }), '2030-01', { country: otherCountryId });
        expect(await upload(first)).toMatchObject({ status: 'needs_review' });
        expect((await stored(first)).flagged).toEqual(['rejected_share']);
      },
    );

    it.skipIf(skip)(
      'a month within the thresholds publishes at once, compared with the last published month',
      async () => {
        const webhook = await call('POST', 'webhooks', admin, {
          name: 'Data desk',
          url: 'http://127.0.0.1:9/published',
          events: ['uploads.published'],
        });
        expect(webhook.statusCode).toBe(201);
        const id = await imported(monthCsv('2030-02', { valueFactor: 1.1, quantityFactor: 1.1 }), '2030-02');
        expect(await upload(id)).toMatchObject({ status: 'published', rows_accepted: ROWS });
        const published = await server.db.query<{ body: string }>(
          'SELECT body FROM webhook_deliveries WHERE webhook_id = $1',
          [(webhook.json() as { data: { id: number } }).data.id],
        );
        expect(published.map((delivery) => JSON.parse(delivery.body))).toMatchObject([
          { event: 'uploads.published', data: { id, status: 'published' } },
        ]);
        const review = await stored(id);
        expect(review).toMatchObject({
          outcome: 'published',
          flagged: [],
          compared_with: { upload_id: basePublished, period: '2030-01' },
        });
        expect(review.checks.every((check) => check.applied)).toBe(true);
        expect(review.checks.find((check) => check.key === 'value_change')).toMatchObject({
          flagged: false,
          previous: review.previous!.value,
        });
        expect(await attached(id)).toBe(ROWS);
      },
    );

    const beyond: Array<[ReviewCheckKey, MonthOptions]> = [
      ['row_count_change', { rows: 20 }],
      ['value_change', { valueFactor: 3 }],
      ['quantity_change', { quantityFactor: 2 }],
      ['rejected_share', { rejected: 20 }],
      ['outside_period_share', { outside: 10 }],
      ['duplicate_share', { duplicates: 10 }],
      ['hs_chapters_changed', { chapters: ['0904', '1006', '8471', '2710'] }],
      ['empty_importer_change', { noImporter: 100 }],
      ['empty_exporter_change', { noExporter: 100 }],
      ['unit_value_change', { chapterValue: { hsCode: '8471', factor: 5 } }],
    ];
    it
      .skipIf(skip)
      .each(
        beyond.map(([key, options], index) => ({ key, options, period: `2031-${String(index + 1).padStart(2, '0')}` })),
      )(
      'a month beyond $key waits for review, naming it, and no reader sees its rows',
      async ({ key, options, period }) => {
        const id = await imported(monthCsv(period, options), period);
        expect(await upload(id)).toMatchObject({ status: 'needs_review' });
        const review = await stored(id);
        expect(review.flagged).toContain(key);
        const check = review.checks.find((candidate) => candidate.key === key)!;
        expect(check).toMatchObject({ flagged: true, applied: true });
        expect(Math.abs(check.measured!)).toBeGreaterThan(check.threshold);
        expect(check.message).toMatch(/more than/);
        // Loaded, held apart: its table exists, attached to nothing a reader reads.
        expect(await tableOf(id)).toBe(`trade_records_upload_${id}`);
        expect(await attached(id)).toBe(0);
        expect(await report(`period=${period}`)).toMatchObject({ rows: [], total: 0 });
      },
    );

    it.skipIf(skip)('the report and its exports never show the rows of an upload waiting for review', async () => {
      const id = await imported(monthCsv('2032-01', { rows: 20 }), '2032-01');
      expect(await upload(id)).toMatchObject({ status: 'needs_review' });
      for (const query of [
        `upload_id=${id}`,
        `country_id=${countryId}`,
        `country_id=${countryId}&trade_direction=import`,
        'period=2032-01',
        'q=Shipment',
        `country_id=${countryId}&q=Shipment`,
      ]) {
        expect((await report(query)).uploads.has(id), query).toBe(false);
      }
      expect(await report('period=2032-01')).toMatchObject({ rows: [], total: 0 });
      expect((await report(`country_id=${countryId}`)).total).toBe(await publishedRows(countryId));
      const exported = await call('GET', `uploaded-data-report/export?country_id=${countryId}`, operator);
      expect(exported.statusCode).toBe(200);
      expect(exported.body.trimEnd().split('\r\n').length - 1).toBe(await publishedRows(countryId));
      expect(exported.body).not.toContain('2032-01-');
    });

    it.skipIf(skip)(
      'a reviewer publishes a held upload with a reason: its rows reach the report, audited with the reason',
      async () => {
        const country = await withHistory();
        const id = await imported(monthCsv('2033-01', { rows: 20 }), '2033-01', { country });
        const review = await reviewOf(id, operator);
        expect(review).toMatchObject({
          upload_id: id,
          status: 'needs_review',
          decision: null,
          review: { outcome: 'needs_review', compared_with: { upload_id: expect.any(Number) } },
        });
        expect(review.review!.flagged).toContain('row_count_change');
        expect(review.months.find((month) => month.current)).toEqual({
          period: '2033-01',
          rows: 20,
          value: review.review!.profile.value,
          current: true,
        });
        expect(review.months.filter((month) => !month.current).length).toBeGreaterThan(0);
        expect(review.months.length).toBeLessThanOrEqual(13);
        const sample = review.samples.find((candidate) => candidate.key === 'row_count_change')!;
        expect(sample.rows).toHaveLength(20);
        expect(sample.rows[0]).toMatchObject({ upload_id: id, hs_code: expect.any(String) });

        const published = await call('POST', `uploads/${id}/publish`, operator, {
          reason: 'A short month: the customs office closed early.',
        });
        expect(published.statusCode, published.body).toBe(200);
        expect((published.json() as { data: Record<string, unknown> }).data).toMatchObject({
          status: 'published',
          verified_at: expect.any(String),
        });
        expect(await attached(id)).toBe(20);
        expect(await report('period=2033-01')).toMatchObject({ total: 20, uploads: new Set([id]) });
        const [entry] = await server.db.query<{ action: string; details: Record<string, unknown> | string }>(
          "SELECT action, details FROM audit_log WHERE record_id = $1 AND action = 'publish'",
          [id],
        );
        expect(typeof entry!.details === 'string' ? JSON.parse(entry!.details) : entry!.details).toMatchObject({
          reason: 'A short month: the customs office closed early.',
          status: 'published',
        });
        expect((await reviewOf(id)).decision).toMatchObject({
          reason: 'A short month: the customs office closed early.',
          at: expect.any(String),
        });
        // Decided once: a second decision is refused.
        expect((await call('POST', `uploads/${id}/publish`, operator, { reason: 'again' })).statusCode).toBe(409);
        expect((await call('POST', `uploads/${id}/reject`, operator, { reason: 'again' })).statusCode).toBe(409);
        expect(
          (await call('POST', `uploads/${basePublished}/reject`, operator, { reason: 'not held' })).statusCode,
        ).toBe(409);
      },
    );

    it.skipIf(skip)(
      'the uploader and every reviewer are told in the console and by e-mail, with a link to the upload, when it waits and when it is decided',
      async () => {
        const country = await withHistory();
        const id = await imported(monthCsv('2037-01', { rows: 20 }), '2037-01', { country });
        const link = `/data-upload-management/uploads/${id}`;
        const told = async (like: string) => {
          const console_ = await server.db.query<{ email: string; link: string | null }>(
            'SELECT u.email, n.link FROM notifications n JOIN users u ON u.id = n.user_id WHERE n.message LIKE $1 ORDER BY u.email',
            [`%<b>2037-01.csv</b>%${like}%`],
          );
          const mail = await server.db.query<{ recipient: string; body: string }>(
            'SELECT recipient, body FROM outbox WHERE subject LIKE $1 ORDER BY recipient',
            [`%2037-01.csv%${like}%`],
          );
          return { console: console_, mail };
        };
        // The uploader (the admin) and the roles with verify: Super Admin and Data Operator; not the Read Only or Sales roles.
        const waiting = await told('waiting for review');
        expect(waiting.console).toEqual([
          { email: 'admin@example.com', link },
          { email: 'operator@example.com', link },
        ]);
        expect(waiting.mail.map((row) => row.recipient)).toEqual(['admin@example.com', 'operator@example.com']);
        expect(waiting.mail[0]!.body).toContain(link);
        expect(waiting.mail[0]!.body).toMatch(/accepted rows/);
        expect(
          (await call('POST', `uploads/${id}/publish`, operator, { reason: 'Expected: a short month.' })).statusCode,
        ).toBe(200);
        const published = await told('is published');
        expect(published.console.map((row) => row.email)).toEqual(['admin@example.com', 'operator@example.com']);
        expect(published.mail[0]!.body).toContain('Expected: a short month.');
      },
    );

    it.skipIf(skip)(
      'a reviewer rejects a held upload: its rows are removed, it stays out of the report, and the reason is kept',
      async () => {
        const id = await imported(monthCsv('2033-02', { duplicates: 30 }), '2033-02', { country: await withHistory() });
        expect(await upload(id)).toMatchObject({ status: 'needs_review' });
        expect((await stored(id)).profile.duplicates).toBe(30);
        const rejected = await call('POST', `uploads/${id}/reject`, admin, {
          reason: 'The file was exported twice over.',
        });
        expect(rejected.statusCode, rejected.body).toBe(200);
        expect((rejected.json() as { data: Record<string, unknown> }).data).toMatchObject({ status: 'rejected' });
        expect(await tableOf(id)).toBeNull();
        expect(await report('period=2033-02')).toMatchObject({ rows: [], total: 0 });
        const [entry] = await server.db.query<{ user_id: number }>(
          "SELECT user_id FROM audit_log WHERE record_id = $1 AND action = 'reject'",
          [id],
        );
        expect(entry).toBeDefined();
        const review = await reviewOf(id);
        expect(review).toMatchObject({ status: 'rejected', decision: { reason: 'The file was exported twice over.' } });
        expect(review.samples.find((sample) => sample.key === 'duplicate_share')!.rows).toEqual([]);
      },
    );

    it.skipIf(skip)(
      'a replacing upload goes through the same gate: customers see the earlier month until the replacement is published',
      async () => {
        const country = await newCountry();
        const earlier = await imported(monthCsv('2034-01'), '2034-01', { country });
        expect(await upload(earlier)).toMatchObject({ status: 'published' });
        const replacing = await imported(monthCsv('2034-01', { rows: 30 }), '2034-01', { country, replace: true });
        expect(await upload(replacing)).toMatchObject({ status: 'needs_review' });
        expect((await stored(replacing)).compared_with).toMatchObject({ upload_id: earlier, period: '2034-01' });
        // Held: the earlier month is still what readers see, whole.
        expect(await upload(earlier)).toMatchObject({ status: 'published' });
        expect(await report('period=2034-01')).toMatchObject({ total: ROWS, uploads: new Set([earlier]) });

        expect(
          (await call('POST', `uploads/${replacing}/publish`, operator, { reason: 'The corrected month.' })).statusCode,
        ).toBe(200);
        expect(await upload(earlier)).toMatchObject({ status: 'replaced' });
        expect(await tableOf(earlier)).toBeNull();
        expect(await report('period=2034-01')).toMatchObject({ total: 30, uploads: new Set([replacing]) });
      },
    );

    it.skipIf(skip)('a replacing upload within the thresholds replaces the month at once', async () => {
      const country = await newCountry();
      const earlier = await imported(monthCsv('2034-02'), '2034-02', { country });
      const replacing = await imported(monthCsv('2034-02', { valueFactor: 1.05 }), '2034-02', {
        country,
        replace: true,
      });
      expect([await upload(earlier), await upload(replacing)]).toMatchObject([
        { status: 'replaced' },
        { status: 'published' },
      ]);
      expect(await report('period=2034-02')).toMatchObject({ total: ROWS, uploads: new Set([replacing]) });
    });

    it.skipIf(skip)(
      'publish and reject need verify: 401 without a token, 403 for a role without it, 400 naming reason',
      async () => {
        const id = await imported(monthCsv('2035-01', { rows: 20 }), '2035-01', { country: await withHistory() });
        for (const decision of ['publish', 'reject']) {
          expect((await call('POST', `uploads/${id}/${decision}`, {}, { reason: 'x' })).statusCode).toBe(401);
          for (const who of [viewer, sales]) {
            const refused = await call('POST', `uploads/${id}/${decision}`, who, { reason: 'x' });
            expect(refused.statusCode, refused.body).toBe(403);
          }
          for (const body of [{}, { reason: '   ' }]) {
            const bad = await call('POST', `uploads/${id}/${decision}`, operator, body);
            expect(bad.statusCode, bad.body).toBe(400);
            expect((bad.json() as { errors: Record<string, string> }).errors).toHaveProperty('reason');
          }
        }
        expect((await call('GET', `uploads/${id}/review`, {})).statusCode).toBe(401);
        expect((await call('GET', `uploads/${id}/review`, viewer)).statusCode).toBe(403);
        expect((await call('POST', 'uploads/999999/publish', operator, { reason: 'x' })).statusCode).toBe(404);
        // An upload of another user: a reviewer reviews every upload, whoever uploaded it (the operator, one of the admin's).
        expect(await upload(id)).toMatchObject({ status: 'needs_review' });
        // The generic verify route is not offered for uploads: a decision is publish or reject.
        expect([404, 405]).toContain((await call('POST', `uploads/${id}/verify`, operator, {})).statusCode);
        expect(await attached(id)).toBe(0);
      },
    );

    it.skipIf(skip)(
      'odd spellings of the decision paths are not routes; a trailing slash keeps the rules',
      async () => {
        const id = await imported(monthCsv('2035-02', { rows: 20 }), '2035-02', { country: await withHistory() });
        const spellings = [
          `/api/v1/uploads/${id}/Publish`,
          `/api/v1/UPLOADS/${id}/publish`,
          `/api/v1//uploads/${id}/publish`,
          `/api/v1/uploads//${id}/publish`,
          `/api/v1/uploads/${id}%2Fpublish`,
          `/api/v1/uploads/${id}/%70ublish`,
          `/api/v1/uploads/${id}/Reject`,
          `/api/v1/uploads/${id}%2Freject`,
          `/api/v1/uploads/${id}/Review`,
        ];
        for (const url of spellings) {
          const method = url.endsWith('eview') ? 'GET' : 'POST';
          expect([401, 404], url).toContain((await call(method, url, {}, { reason: 'x' })).statusCode);
          expect([400, 403, 404], url).toContain((await call(method, url, viewer, { reason: 'x' })).statusCode);
        }
        expect((await call('POST', `/api/v1/uploads/${id}/publish/`, {}, { reason: 'x' })).statusCode).toBe(401);
        expect((await call('POST', `/api/v1/uploads/${id}/publish/`, viewer, { reason: 'x' })).statusCode).toBe(403);
        expect((await call('POST', `/api/v1/uploads/${id}/reject/`, sales, { reason: 'x' })).statusCode).toBe(403);
        expect(await upload(id)).toMatchObject({ status: 'needs_review' });
      },
    );

    it.skipIf(skip)('an administrator changes the thresholds (verify), and the imports after follow them', async () => {
      expect((await call('GET', 'uploads/review-settings', viewer)).statusCode).toBe(403);
      expect((await call('PUT', 'uploads/review-settings', {}, { rejected_share: 0.5 })).statusCode).toBe(401);
      expect((await call('PUT', 'uploads/review-settings', viewer, { rejected_share: 0.5 })).statusCode).toBe(403);
      const bad = await call('PUT', 'uploads/review-settings', admin, { rejected_share: -1 });
      expect(bad.statusCode).toBe(400);
      expect((bad.json() as { errors: Record<string, string> }).errors).toHaveProperty('rejected_share');
      const before = (await call('GET', 'uploads/review-settings', operator)).json() as {
        data: { thresholds: Record<string, number>; defaults: Record<string, number> };
      };
      expect(before.data.thresholds).toEqual(before.data.defaults);
      expect(before.data.defaults).toMatchObject({ hold: true, rejected_share: 0.05 });

      const changed = await call('PUT', 'uploads/review-settings', admin, { rejected_share: 0.5 });
      expect(changed.statusCode, changed.body).toBe(200);
      expect((changed.json() as { data: { thresholds: Record<string, number> } }).data.thresholds).toMatchObject({
        rejected_share: 0.5,
        row_count_change: 0.4,
      });
      const id = await imported(monthCsv('2036-01', { rejected: 20 }), '2036-01', { country: await withHistory() });
      expect(await upload(id)).toMatchObject({ status: 'published' });
      const [entry] = await server.db.query<{ changes: unknown }>(
        "SELECT changes FROM audit_log WHERE module = 'DATA_UPLOAD_LOGS' AND action = 'update' AND record_id IS NULL ORDER BY id DESC LIMIT 1",
      );
      expect(JSON.stringify(entry!.changes)).toContain('rejected_share');
      expect((await call('PUT', 'uploads/review-settings', admin, { rejected_share: 0.05 })).statusCode).toBe(200);
    });
  },
);
