import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { TRADE_CSV_WITH_REJECTS } from '../uploads/testing/tradeCsv.ts';
import { tusRequests, type UploadTicket } from '../uploads/testing/tusRequests.ts';
import { publishEveryImport } from '../uploads/testing/reviewSettings.ts';

const databases = await testDatabases();

describe.each(databases)('subscribers, notifications and uploads on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let subscriberId: number;
  let countryId: number;
  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown, headers = admin) => {
    const response = await server.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return {
      status: response.statusCode,
      body: response.json() as {
        data: Record<string, unknown> & { id: number };
        meta?: { total: number };
        errors?: Record<string, string>;
      },
    };
  };
  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    await publishEveryImport(server.db);
    admin = await server.auth('Super Admin');
    countryId = (
      await call('POST', 'countries', { name: 'India', iso2: 'IN', iso3: 'IND', region: 'asia', currency_code: 'INR' })
    ).body.data.id;
    subscriberId = (
      await call('POST', 'subscribers', {
        name: 'Asha Rao',
        email: 'asha.rao@example.com',
        mobile: '9876543215',
        country_id: countryId,
      })
    ).body.data.id;
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)(
    'ADD_SUBSCRIPTION credits the plan points, records the payment, and the subscriber is active on the plan',
    async () => {
      const plan = await call('POST', 'plans', {
        name: 'Pro',
        code: 'PRO',
        price: 1999,
        validity_days: 365,
        points: 500,
        max_users: 2,
      });
      expect(plan.status).toBe(201);
      const today = (await server.db.query<{ today: string }>('SELECT current_date::text AS today'))[0]!.today;
      const added = await call('POST', `subscribers/${subscriberId}/subscriptions`, {
        plan_id: plan.body.data.id,
        starts_on: today,
        amount_paid: 1999,
        payment_reference: 'NEFT-1',
      });
      expect(added.status).toBe(201);
      const summary = await call('GET', `subscribers/${subscriberId}/summary`);
      expect(summary.body.data).toMatchObject({
        points_balance: 500,
        paid_total: 1999,
        subscription: { plan_id: plan.body.data.id, plan_label: 'Pro', state: 'current', is_current: true },
      });
      expect(summary.body.data.subscriber).toMatchObject({
        status: 'active',
        plan_id: plan.body.data.id,
        points_balance: 500,
      });
      expect(
        (
          await call('POST', `subscribers/${subscriberId}/subscriptions`, {
            plan_id: 999999,
            starts_on: today,
            amount_paid: 0,
          })
        ).status,
      ).toBe(400);
    },
  );

  it.skipIf(skip)(
    'ADD_TOP_UP: the same idempotency key credits once; concurrent top-ups are neither lost nor double-counted',
    async () => {
      const before = Number((await call('GET', `subscribers/${subscriberId}/summary`)).body.data.points_balance);
      const topUp = (key: string) =>
        call('POST', `subscribers/${subscriberId}/top-ups`, { points: 10, amount: 100, idempotency_key: key });
      const results = await Promise.all([
        ...Array.from({ length: 10 }, (_, index) => topUp(`key-concurrent-${index}`)),
        topUp('key-concurrent-0'),
        topUp('key-concurrent-1'),
      ]);
      expect(results.every((result) => result.status === 201 || result.status === 200)).toBe(true);
      const after = await call('GET', `subscribers/${subscriberId}/summary`);
      expect(after.body.data.points_balance).toBe(before + 100);
      const ledger = (await call('GET', `subscribers/${subscriberId}/ledger`)).body.data as unknown as Array<{
        balance_after: number;
        points: number;
      }>;
      // Each entry's balance follows from the one before it.
      const chronological = [...ledger].reverse();
      chronological.forEach((entry, index) =>
        expect(entry.balance_after).toBe((chronological[index - 1]?.balance_after ?? 0) + entry.points),
      );
      expect(
        (
          await call('POST', `subscribers/${subscriberId}/top-ups`, {
            points: -5,
            amount: 0,
            idempotency_key: 'negative-01',
          })
        ).status,
      ).toBe(400);
    },
  );

  it.skipIf(skip)(
    "NOTIF-05 GET notification with is_read=false, _page=1, _page_size=8 lists the caller's unread notifications",
    async () => {
      const userId = server.userIds.get('admin@example.com')!;
      for (let index = 0; index < 10; index += 1)
        await server.db.query('INSERT INTO notifications (user_id, message) VALUES ($1, $2)', [
          userId,
          `<b>Note ${index}</b>`,
        ]);
      await server.db.query('INSERT INTO notifications (user_id, message) VALUES ($1, $2)', [
        server.userIds.get('viewer@example.com'),
        'not yours',
      ]);
      const page = await call('GET', 'notification?is_read=false&_page=1&_page_size=8');
      expect(page.status).toBe(200);
      const rows = page.body.data as unknown as Array<{
        id: number;
        message: string;
        is_read: boolean;
        created_at: string;
      }>;
      expect(rows).toHaveLength(8);
      expect(page.body.meta?.total).toBe(10);
      expect(rows[0]).toEqual({
        id: expect.any(Number),
        message: '<b>Note 9</b>',
        link: null,
        is_read: false,
        created_at: expect.any(String),
      });
    },
  );

  it.skipIf(skip)("NOTIF-09 POST notification marks one read, only the caller's own", async () => {
    const rows = (await call('GET', 'notification?is_read=false&_page=1&_page_size=8')).body.data as unknown as Array<{
      id: number;
    }>;
    expect((await call('POST', 'notification', { id: rows[0]!.id })).status).toBe(200);
    expect((await call('GET', 'notification?is_read=false&_page=1&_page_size=8')).body.meta?.total).toBe(9);
    const [other] = await server.db.query<{ id: number }>(`SELECT id FROM notifications WHERE message = 'not yours'`);
    expect((await call('POST', 'notification', { id: other!.id })).status).toBe(404);
  });

  it.skipIf(skip)(
    'NOTIF-08 POST notification/mark-all-as-read with {} marks every unread notification read',
    async () => {
      expect((await call('POST', 'notification/mark-all-as-read', {})).status).toBe(200);
      expect((await call('GET', 'notification?is_read=false&_page=1&_page_size=8')).body.meta?.total).toBe(0);
      const [other] = await server.db.query<{ is_read: boolean }>(
        `SELECT is_read FROM notifications WHERE message = 'not yours'`,
      );
      expect(other!.is_read).toBe(false);
    },
  );

  describe('data upload', () => {
    const CSV = TRADE_CSV_WITH_REJECTS;
    const announce = (fileName: string, size: number) =>
      call(
        'POST',
        'uploads',
        { country_id: countryId, trade_direction: 'export', period: '2026-09', file_name: fileName, size },
        admin,
      );
    const tus = () => tusRequests(server.app);
    const complete = (id: number) => call('POST', `uploads/${id}/complete`, {});

    it.skipIf(skip)(
      'a signed URL takes the file; rows are parsed, rejected lines logged, and the uploader notified',
      async () => {
        const announced = await announce('exports.csv', CSV.length);
        expect(announced.status).toBe(201);
        const { upload_url: url, upload } = announced.body.data as unknown as {
          upload_url: string;
          upload: { id: number };
        };
        expect(url).toMatch(/^\/api\/v1\/uploads\/\d+\/file\?expires=\d+&signature=/);
        await tus().sendFile(announced.body.data as unknown as UploadTicket, Buffer.from(CSV));
        expect((await complete(upload.id)).status).toBe(200);
        await server.app.uploads.idle();
        const log = await call('GET', `uploads/${upload.id}/log`);
        expect(log.body.data).toMatchObject({
          upload: { status: 'published', rows_total: 4, rows_accepted: 2, rows_rejected: 2 },
        });
        const rejected = (log.body.data as unknown as { rejected: Array<{ line: number; reason: string }> }).rejected;
        expect(rejected.map((entry) => entry.line)).toEqual([3, 4]);
        expect(rejected[1]!.reason).toContain('shipment_date');
        const report = await call('GET', 'uploaded-data-report?q=pepper');
        expect(report.body.meta?.total).toBe(1);
        const unread = await call('GET', 'notification?is_read=false&_page=1&_page_size=8');
        expect(JSON.stringify(unread.body.data)).toContain('exports.csv');
        // The notification opens the upload it is about.
        const told = (unread.body.data as unknown as Array<{ message: string; link: string | null }>).find((row) =>
          row.message.includes('exports.csv'),
        );
        expect(told?.link).toBe(`/data-upload-management/uploads/${upload.id}`);
        expect((await tus().create(url, CSV.length)).status).toBe(409);
        expect((await complete(upload.id)).status).toBe(409);
        const trending = await call('POST', 'sync-trending-data/refresh', {});
        expect(trending.status).toBe(200);
        expect(
          ((await call('GET', 'sync-trending-data')).body.data as unknown as { items: unknown[] }).items,
        ).toHaveLength(2);
      },
    );

    it.skipIf(skip)(
      'refused, with nothing stored: too large, wrong type, path in the name, forged or expired URL, wrong header',
      async () => {
        expect((await announce('../etc/passwd.csv', 10)).status).toBe(400);
        expect((await announce('data.exe', 10)).status).toBe(400);
        expect((await announce('big.csv', server.config.uploadMaxBytes + 1)).status).toBe(400);
        const filesBefore = server.storage.files.size;
        const small = (await announce('small.csv', 40)).body.data as unknown as UploadTicket;
        expect((await tus().create(small.upload_url, CSV.length)).status).toBe(413);
        expect((await tus().create(small.upload_url.replace(/signature=[^&]+/, 'signature=forged'), 40)).status).toBe(
          403,
        );
        const expired = new URL(small.upload_url, 'http://unused.invalid');
        expired.searchParams.set('expires', String(Math.floor(Date.now() / 1000) - 5));
        expect((await tus().create(expired.pathname + expired.search, 40)).status).toBe(403);
        expect(server.storage.files.size).toBe(filesBefore);
        const header = 'name,email\nx,y';
        const wrong = (await announce('wrong.csv', header.length)).body.data as unknown as UploadTicket;
        await tus().sendFile(wrong, Buffer.from(header));
        expect((await complete(wrong.upload.id)).status).toBe(400);
        const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0]);
        const binary = (await announce('binary.csv', zip.length)).body.data as unknown as UploadTicket;
        await tus().sendFile(binary, zip);
        expect((await complete(binary.upload.id)).status).toBe(415);
        expect(server.storage.files.size).toBe(filesBefore);
      },
    );
  });

  it.skipIf(skip)('reports and the module registry answer their shapes', async () => {
    const summary = await call('GET', 'reports/summary?from=2026-01-01&to=2026-12-31');
    expect(Object.keys(summary.body.data).sort()).toEqual([
      'points_consumed',
      'revenue',
      'subscribers_by_plan',
      'uploads_per_month',
    ]);
    const modules = await call('GET', 'modules');
    expect(modules.status).toBe(200);
    expect((await call('GET', 'modules', undefined, await server.auth('Sales Executive'))).status).toBe(403);
  });
});
