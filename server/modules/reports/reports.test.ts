import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODULE, entityResource } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';

const databases = await testDatabases();

describe.each(databases)('admin summary report CSV export on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  const get = (url: string, headers = admin) => server.app.inject({ method: 'GET', url: `/api/v1/${url}`, headers });

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    admin = await server.auth('Super Admin');
    const plan = async (name: string, code: string) => {
      const response = await server.app.inject({
        method: 'POST',
        url: '/api/v1/plans',
        headers: admin,
        payload: { name, code, price: 1999, validity_days: 30, points: 500, max_users: 2 },
      });
      expect(response.statusCode, response.body).toBe(201);
      return (response.json() as { data: { id: number } }).data.id;
    };
    const pro = await plan('Pro', 'PRO');
    const starter = await plan('Starter', 'STARTER');
    // Fixed dates, so the months are known: two of them in the range, one before it.
    await server.db.query(
      `INSERT INTO subscriber_subscriptions (subscriber_id, plan_id, starts_on) VALUES (1, $1, '2026-01-15'), (2, $1, '2026-01-20'), (3, $2, '2026-02-03'), (4, $2, '2025-06-01')`,
      [pro, starter],
    );
    await server.db.query(
      `INSERT INTO points_ledger (subscriber_id, kind, points, amount, balance_after, created_at) VALUES
         (1, 'subscription', 500, 1999, 500, '2026-01-15 12:00:00+00'), (1, 'top_up', 10, 100, 510, '2026-01-20 12:00:00+00'),
         (1, 'consumption', -40, 0, 470, '2026-02-10 12:00:00+00'), (2, 'top_up', 5, 50, 5, '2025-06-01 12:00:00+00')`,
    );
    await server.db.query(
      `INSERT INTO payments (subscriber_id, kind, amount, received_at) VALUES
         (1, 'subscription', 1999, '2026-01-15 12:00:00+00'), (1, 'top_up', 100, '2026-01-20 12:00:00+00'), (2, 'top_up', 50, '2025-06-01 12:00:00+00')`,
    );
    const uploads = entityResource(MODULE.dataUploadLogs)!;
    await server.db.query(`INSERT INTO ${quoted(uploads.entity.table)} (created_at) VALUES ('2026-02-01 12:00:00+00')`);
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)(
    'streams every series of the summary for the range as CSV rows, the same figures the report shows',
    async () => {
      const response = await get('reports/summary/export?from=2026-01-01&to=2026-12-31');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(
        'attachment; filename="admin-report-2026-01-01-to-2026-12-31.csv"',
      );
      expect(response.body).toBe(
        [
          'Report,Month,Plan,Value',
          'Subscribers by plan,2026-01,Pro,2',
          'Subscribers by plan,2026-02,Starter,1',
          'Points consumed,2026-02,,40',
          'Uploads per month,2026-02,,1',
          'Revenue from subscriptions and top-ups,2026-01,,2099',
          '',
        ].join('\r\n'),
      );
      const summary = (await get('reports/summary?from=2026-01-01&to=2026-12-31')).json() as {
        data: Record<string, Array<Record<string, unknown>>>;
      };
      const figures = Object.values(summary.data).flatMap((rows) =>
        rows.map((row) => Number(Object.values(row).at(-1))),
      );
      expect(figures).toEqual([2, 1, 40, 1, 2099]);
    },
  );

  it.skipIf(skip)('without a range exports everything; a bad or unknown query parameter is a 400', async () => {
    const all = await get('reports/summary/export');
    expect(all.statusCode).toBe(200);
    expect(all.headers['content-disposition']).toBe('attachment; filename="admin-report.csv"');
    expect(all.body).toContain('Subscribers by plan,2025-06,Starter,1\r\n');
    expect(all.body).toContain('Revenue from subscriptions and top-ups,2025-06,,50\r\n');
    expect((await get('reports/summary/export?from=yesterday')).statusCode).toBe(400);
    expect((await get('reports/summary/export?_columns=month')).statusCode).toBe(400);
  });

  it.skipIf(skip)(
    'needs ADMIN_REPORTING download on top of view: 403 for a role that may only view the report',
    async () => {
      const viewer = await server.auth('Read Only');
      expect((await get('reports/summary?from=2026-01-01&to=2026-12-31', viewer)).statusCode).toBe(200);
      const refused = await get('reports/summary/export?from=2026-01-01&to=2026-12-31', viewer);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({
        message: 'You do not have permission to use this route in ADMIN_REPORTING (view and download).',
      });
      expect((await get('reports/summary/export', await server.auth('Sales Executive'))).statusCode).toBe(403);
      expect((await server.app.inject({ method: 'GET', url: '/api/v1/reports/summary/export' })).statusCode).toBe(401);
    },
  );

  it.skipIf(skip)(
    'counts uploads in the month of their data (their period), not the month they were sent',
    async () => {
      const uploads = entityResource(MODULE.dataUploadLogs)!;
      // Sent in May 2026: March's data twice and April's once; one sent in March with data of a month before the range.
      await server.db.query(
        `INSERT INTO ${quoted(uploads.entity.table)} (period, created_at) VALUES
         ('2026-03', '2026-05-02 12:00:00+00'), ('2026-03', '2026-05-03 12:00:00+00'), ('2026-04', '2026-05-04 12:00:00+00'), ('2025-11', '2026-03-05 12:00:00+00')`,
      );
      const summary = (await get('reports/summary?from=2026-03-01&to=2026-05-31')).json() as {
        data: { uploads_per_month: Array<{ month: string; uploads: number }> };
      };
      expect(summary.data.uploads_per_month.map(({ month, uploads: count }) => [month, Number(count)])).toEqual([
        ['2026-03', 2],
        ['2026-04', 1],
      ]);
      const all = await get('reports/summary/export');
      expect(all.body).toContain('Uploads per month,2025-11,,1\r\n');
      expect(all.body).not.toContain('Uploads per month,2026-05,');
    },
  );
});
