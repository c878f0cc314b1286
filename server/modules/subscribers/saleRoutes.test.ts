/** Selling's routes hold their access rules: no token, a role without the action, another executive's subscriber, odd spellings. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';

const databases = await testDatabases();

describe.each(databases)("selling routes' access on $kind", ({ kind, skip }) => {
  let server: TestServer;
  const ids = { mine: 0, other: 0, plan: 0, subscription: 0 };
  const headers: Record<'admin' | 'sales' | 'viewer' | 'operator', Record<string, string>> = {
    admin: {},
    sales: {},
    viewer: {},
    operator: {},
  };
  const send = async (method: 'GET' | 'POST', url: string, who: Record<string, string>, payload?: object) =>
    server.app.inject({ method, url, headers: who, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind, {}, { demoSubscribers: 20 });
    headers.admin = await server.auth('Super Admin');
    headers.sales = await server.auth('Sales Executive');
    headers.viewer = await server.auth('Read Only');
    headers.operator = await server.auth('Data Operator');
    const [mine] = await server.db.query<{ id: number }>(
      `SELECT s.id FROM subscribers s JOIN executive_profiles e ON e.id = s.executive_id JOIN users u ON u.id = e.user_id WHERE u.email = 'sales@example.com' ORDER BY s.id LIMIT 1`,
    );
    const [other] = await server.db.query<{ id: number }>(
      'SELECT id FROM subscribers WHERE executive_id IS NULL ORDER BY id LIMIT 1',
    );
    ids.mine = Number(mine!.id);
    ids.other = Number(other!.id);
    ids.plan = Number((await server.db.query<{ id: number }>('SELECT min(id) AS id FROM plans'))[0]!.id);
    const sold = await send('POST', `/api/v1/subscribers/${ids.other}/subscriptions`, headers.admin, {
      plan_id: ids.plan,
      starts_on: '2030-01-01',
      amount_paid: 0,
    });
    expect(sold.statusCode, sold.body).toBe(201);
    ids.subscription = Number(sold.json().data.subscription.id);
  }, 120_000);
  afterAll(async () => server?.close());

  const routes = () => [
    { method: 'GET' as const, path: (id: number) => `subscribers/${id}/summary`, action: 'SUBSCRIBER_DETAIL' },
    { method: 'GET' as const, path: (id: number) => `subscribers/${id}/subscriptions`, action: 'SUBSCRIBER_DETAIL' },
    { method: 'GET' as const, path: (id: number) => `subscribers/${id}/payments`, action: 'SUBSCRIBER_DETAIL' },
    {
      method: 'GET' as const,
      path: (id: number) => `subscribers/${id}/subscription-quote?plan_id=${ids.plan}`,
      action: 'ADD_SUBSCRIPTION',
    },
    {
      method: 'POST' as const,
      path: (id: number) => `subscribers/${id}/subscriptions`,
      action: 'ADD_SUBSCRIPTION',
      body: { plan_id: ids.plan, starts_on: '2030-02-01', amount_paid: 0 },
    },
    {
      method: 'POST' as const,
      path: (id: number) => `subscribers/${id}/subscriptions/${ids.subscription}/cancel`,
      action: 'ADD_SUBSCRIPTION',
    },
    {
      method: 'POST' as const,
      path: (id: number) => `subscribers/${id}/top-ups`,
      action: 'ADD_TOP_UP',
      body: { points: 1, amount: 1, idempotency_key: 'access-check-1' },
    },
  ];

  it.skipIf(skip)(
    "no token: 401; a role without the action: 403; another executive's subscriber: 404, nothing changed",
    async () => {
      const before = await server.db.query(
        'SELECT count(*)::int AS n FROM subscriber_subscriptions WHERE cancelled_at IS NULL',
      );
      for (const route of routes()) {
        expect(
          (await send(route.method, `/api/v1/${route.path(ids.other)}`, {}, route.body)).statusCode,
          route.path(0),
        ).toBe(401);
        const viewer = await send(route.method, `/api/v1/${route.path(ids.other)}`, headers.viewer, route.body);
        expect(viewer.statusCode, route.path(0)).toBe(
          route.method === 'GET' && route.action === 'SUBSCRIBER_DETAIL' ? 200 : 403,
        );
        expect(
          (await send(route.method, `/api/v1/${route.path(ids.other)}`, headers.operator, route.body)).statusCode,
          route.path(0),
        ).toBe(403);
        expect(
          (await send(route.method, `/api/v1/${route.path(ids.other)}`, headers.sales, route.body)).statusCode,
          route.path(0),
        ).toBe(404);
      }
      expect(
        await server.db.query('SELECT count(*)::int AS n FROM subscriber_subscriptions WHERE cancelled_at IS NULL'),
      ).toEqual(before);
      // A subscription of another subscriber is not cancelled through one's own.
      expect(
        (await send('POST', `/api/v1/subscribers/${ids.mine}/subscriptions/${ids.subscription}/cancel`, headers.sales))
          .statusCode,
      ).toBe(404);
      expect((await send('GET', `/api/v1/subscribers/${ids.mine}/payments`, headers.sales)).statusCode).toBe(200);
    },
  );

  it.skipIf(skip)("the summary's `can` is what the routes then accept, for each role and record", async () => {
    const cases = [
      { who: headers.admin, id: ids.other, expected: true },
      { who: headers.viewer, id: ids.other, expected: false },
      { who: headers.sales, id: ids.mine, expected: true },
    ];
    for (const [index, { who, id, expected }] of cases.entries()) {
      const summary = await send('GET', `/api/v1/subscribers/${id}/summary`, who);
      expect(summary.statusCode).toBe(200);
      expect(summary.json().data.can).toEqual({
        add_subscription: expected,
        cancel_subscription: expected,
        add_top_up: expected,
      });
      const quote = await send('GET', `/api/v1/subscribers/${id}/subscription-quote?plan_id=${ids.plan}`, who);
      expect(quote.statusCode).toBe(expected ? 200 : 403);
      const topUp = await send('POST', `/api/v1/subscribers/${id}/top-ups`, who, {
        points: 1,
        amount: 0,
        idempotency_key: `can-check-${index}`,
      });
      expect(topUp.statusCode).toBe(expected ? 201 : 403);
    }
    // Another executive's subscriber: no summary at all, so nothing to offer.
    const other = await send('GET', `/api/v1/subscribers/${ids.other}/summary`, headers.sales);
    expect(other.statusCode).toBe(404);
    expect(other.json().data).toBeUndefined();
  });

  it.skipIf(skip)('odd spellings of the paths are not routes; a trailing slash keeps the rules', async () => {
    const spellings = [
      `/api/v1/subscribers/${ids.other}/Subscriptions`,
      `/api/v1/subscribers/${ids.other}/Summary`,
      `/api/v1//subscribers/${ids.other}/payments`,
      `/api/v1/SUBSCRIBERS/${ids.other}/payments`,
      `/api/v1/subscribers/${ids.other}%2Fpayments`,
      `/api/v1/subscribers/%70${ids.other}/payments`,
      `/api/v1/subscribers/${ids.other}/subscriptions/${ids.subscription}/Cancel`,
    ];
    for (const url of spellings) {
      expect([401, 404], url).toContain((await send('GET', url, {})).statusCode);
      const answered = await send(url.endsWith('Cancel') ? 'POST' : 'GET', url, headers.admin);
      expect([400, 404], url).toContain(answered.statusCode);
    }
    // A trailing slash is the same route (the router ignores it), under the same rules.
    expect((await send('GET', `/api/v1/subscribers/${ids.other}/payments/`, {})).statusCode).toBe(401);
    expect((await send('GET', `/api/v1/subscribers/${ids.other}/payments/`, headers.sales)).statusCode).toBe(404);
    expect(
      (await send('POST', `/api/v1/subscribers/${ids.other}/subscriptions/${ids.subscription}/cancel/`, headers.viewer))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await server.db.query<{ cancelled_at: string | null }>(
          'SELECT cancelled_at FROM subscriber_subscriptions WHERE id = $1',
          [ids.subscription],
        )
      )[0]!.cancelled_at,
    ).toBeNull();
  });
});
