import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import type { Database } from '../../db/database.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { MemoryStorage } from '../uploads/storage.ts';
import { moveSubscriptionsOn } from '../subscribers/subscriptionClock.ts';
import { DEEP_PAGE_OFFSET, MAX_KEPT_IDS } from './resourceContext.ts';

const databases = await testDatabases();

/** Subscribers added beyond the demo ones: several times the deep-page offset, half of them the demo executive's. */
const ADDED = DEEP_PAGE_OFFSET * 6;

/**
 * Pages past DEEP_PAGE_OFFSET are read from the list's ordered ids, kept per data version, instead of with OFFSET.
 * They must be exactly the pages OFFSET gives (every size, both directions, ties on the sort field), within the
 * caller's scope, and show a change on the very next request.
 */
describe.each(databases)('deep pages of a list on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let executive: Record<string, string>;
  /** The countries the added subscribers are in, in turn: what the lists filter on. */
  let countries: number[] = [];

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind, {}, { demoSubscribers: 10 });
    // Today's round of the subscription clock done first: it rewrites statuses and moves the data version on.
    for (;;) {
      await moveSubscriptionsOn(server.app);
      const [clock] = await server.db.query<{ done: boolean }>(
        'SELECT derived_on = current_date AS done FROM subscription_clock WHERE id = 1',
      );
      if (clock?.done) break;
    }
    countries = (await server.db.query<{ id: number }>('SELECT id FROM countries ORDER BY id LIMIT 4')).map((row) =>
      Number(row.id),
    );
    // Three subscribers a minute (ties on created_at), countries in turn, alternate ones the demo executive's.
    await server.db.query(
      `INSERT INTO subscribers (name, email, country_id, created_at, executive_id)
       SELECT 'Deep ' || n, 'deep' || n || '@example.com', ($2::bigint[])[n % 3 + 1],
              timestamptz '2026-01-01' + (n / 3) * interval '1 minute',
              CASE WHEN n % 2 = 0 THEN (SELECT e.id FROM executive_profiles e JOIN users u ON u.id = e.user_id
                                          WHERE u.email = 'sales@example.com') END
         FROM generate_series(1, $1::int) AS n`,
      [ADDED, countries.slice(0, 3)],
    );
    await server.db.query(
      `INSERT INTO role_permissions (role_id, module, action)
       SELECT id, 'SUBSCRIBERS_LIST', 'view' FROM roles WHERE name = 'Sales Executive' ON CONFLICT DO NOTHING`,
    );
    admin = await server.auth('Super Admin');
    executive = await server.auth('Sales Executive');
  }, 120_000);
  afterAll(async () => server?.close());

  const page = async (app: TestServer['app'], query: string, headers = admin) => {
    const response = await app.inject({ method: 'GET', url: `/api/v1/subscribers?${query}`, headers });
    expect(response.statusCode, response.body).toBe(200);
    const { data, meta } = response.json() as { data: Array<{ id: number }>; meta: { total: number } };
    return { ids: data.map((row) => Number(row.id)), total: meta.total };
  };

  /** The list's ids in order as OFFSET would page them: the reference. */
  const expected = async (where: string, order: string) =>
    (await server.db.query<{ id: number }>(`SELECT id FROM subscribers s WHERE ${where} ORDER BY ${order}`)).map(
      (row) => Number(row.id),
    );

  it.skipIf(skip)('every page of every size, in both directions, is the page OFFSET gives', async () => {
    for (const [direction, order] of [
      ['desc', 's.created_at DESC, s.id DESC'],
      ['asc', 's.created_at ASC, s.id ASC'],
    ] as const) {
      const all = await expected(`s.country_id IN (${countries[0]}, ${countries[1]})`, order);
      for (const size of [7, 50]) {
        const pages = Math.ceil(all.length / size) + 1;
        for (let number = 1; number <= pages; number += 1) {
          const query = `country_id=${countries[0]},${countries[1]}&_sort=created_at&_order=${direction}&_page=${number}&_page_size=${size}`;
          expect(await page(server.app, query), `page ${number} of ${size}, ${direction}`).toEqual({
            ids: all.slice((number - 1) * size, number * size),
            total: all.length,
          });
        }
      }
    }
  });

  it.skipIf(skip)("an executive's deep pages hold their subscribers only, and their total", async () => {
    const theirs = await expected(
      `s.executive_id = (SELECT e.id FROM executive_profiles e JOIN users u ON u.id = e.user_id WHERE u.email = 'sales@example.com')`,
      's.created_at DESC, s.id DESC',
    );
    expect(theirs.length).toBeGreaterThan(DEEP_PAGE_OFFSET + 50);
    const number = Math.floor(DEEP_PAGE_OFFSET / 50) + 2;
    expect(await page(server.app, `_sort=created_at&_order=desc&_page=${number}&_page_size=50`, executive)).toEqual({
      ids: theirs.slice((number - 1) * 50, number * 50),
      total: theirs.length,
    });
  });

  it.skipIf(skip)(
    'one read of the ids serves every deep page until the data changes, then the change shows',
    async () => {
      const statements: string[] = [];
      const counting: Database = {
        ...server.db,
        query: (sql, params) => {
          statements.push(sql);
          return server.db.query(sql, params);
        },
      };
      const app = await buildApp({ config: server.config, db: counting, storage: new MemoryStorage() });
      try {
        await app.ready();
        const query = (number: number, size: number) =>
          `country_id=${countries[2]}&_sort=created_at&_order=desc&_page=${number}&_page_size=${size}`;
        const deep = Math.ceil(DEEP_PAGE_OFFSET / 10) + 1;
        for (const [number, size] of [
          [deep, 10],
          [deep + 1, 10],
          [deep, 11],
          [DEEP_PAGE_OFFSET / 100 + 1, 100],
        ] as const)
          await page(app, query(number, size));
        const ofSubscribers = statements.filter((sql) => sql.includes('"subscribers" t'));
        expect(ofSubscribers.filter((sql) => sql.startsWith('SELECT t.id FROM'))).toHaveLength(1);
        expect(ofSubscribers.filter((sql) => sql.includes('OFFSET'))).toEqual([]);

        const before = await page(app, query(deep, 10));
        await server.db.query('UPDATE subscribers SET country_id = $1 WHERE id = $2', [countries[0], before.ids[0]]);
        const after = await page(app, query(deep, 10));
        expect(after.total).toBe(before.total - 1);
        expect(after.ids).toEqual([...before.ids.slice(1), after.ids.at(-1)]);
        expect(after.ids).not.toContain(before.ids[0]);
      } finally {
        await app.close();
      }
    },
  );

  it.skipIf(skip)(
    'a list of more matches than are kept pages with OFFSET, the same pages',
    async () => {
      await server.db.query(
        `INSERT INTO subscribers (name, country_id, created_at)
       SELECT 'Many ' || n, $2::bigint, timestamptz '2025-01-01' + n * interval '1 second'
         FROM generate_series(1, $1::int) AS n`,
        [MAX_KEPT_IDS + 1, countries[3]],
      );
      const all = await expected(`s.country_id = ${countries[3]}`, 's.created_at ASC, s.id ASC');
      expect(all.length).toBeGreaterThan(MAX_KEPT_IDS);
      for (const number of [Math.ceil(DEEP_PAGE_OFFSET / 20) + 1, Math.ceil(all.length / 20)])
        expect(
          await page(
            server.app,
            `country_id=${countries[3]}&_sort=created_at&_order=asc&_page=${number}&_page_size=20`,
          ),
        ).toEqual({
          ids: all.slice((number - 1) * 20, number * 20),
          total: all.length,
        });
    },
    60_000,
  );
});
