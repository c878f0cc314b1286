import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';

const databases = await testDatabases();

/** Shipments of an HS code dated yesterday, so the trending products (the last 12 months) count them. */
async function ship(server: TestServer, hsCode: string, count: number): Promise<void> {
  await server.db.query(
    `INSERT INTO trade_records (upload_id, period, shipment_date, hs_code, product_description, quantity, unit, value)
     SELECT 1, to_char(current_date - 1, 'YYYY-MM'), current_date - 1, $1, 'Product ' || $1, 1, 'KGS', 10 FROM generate_series(1, $2::int)`,
    [hsCode, count],
  );
}

describe.each(databases)('trending products refresh on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  const refresh = () =>
    server.app.inject({ method: 'POST', url: '/api/v1/sync-trending-data/refresh', headers: admin, payload: {} });
  const trending = async () =>
    await server.db.query<{ hs_code: string; shipments: number }>(
      'SELECT hs_code, shipments FROM trending_products ORDER BY shipments DESC, hs_code',
    );

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    admin = await server.auth('Super Admin');
    await ship(server, '0901', 3);
    await ship(server, '1006', 5);
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)(
    'refreshes asked together all answer 200 and leave the trending products of the trade records, each once',
    async () => {
      const answers = await Promise.all(Array.from({ length: 4 }, refresh));
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
      for (const answer of answers)
        expect(answer.json()).toMatchObject({ data: { rows: 2 }, message: 'Trending data refreshed.' });
      expect(await trending()).toEqual([
        { hs_code: '1006', shipments: 5 },
        { hs_code: '0901', shipments: 3 },
      ]);
    },
  );

  it.skipIf(skip)(
    'a refresh asked after the last one read the trade records computes again: new shipments count, and it is dated later',
    async () => {
      const before = (await refresh()).json() as { data: { synced_at: string } };
      await ship(server, '0901', 4);
      const after = (await refresh()).json() as { data: { synced_at: string; rows: number } };
      expect(Date.parse(after.data.synced_at)).toBeGreaterThan(Date.parse(before.data.synced_at));
      expect(await trending()).toEqual([
        { hs_code: '0901', shipments: 7 },
        { hs_code: '1006', shipments: 5 },
      ]);
      const listed = await server.app.inject({ method: 'GET', url: '/api/v1/sync-trending-data', headers: admin });
      expect((listed.json() as { data: { synced_at: string } }).data.synced_at).toBe(after.data.synced_at);
    },
  );
});
