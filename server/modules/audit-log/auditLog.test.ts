import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { EXACT_TOTAL_UP_TO } from './query.ts';

const databases = await testDatabases();
type Headers = Record<string, string>;

describe.each(databases)('GET audit-log, its export and its filters, on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Headers;
  let sales: Headers;
  let adminId: number;
  let salesId: number;
  let mine: number;
  let theirs: number;

  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers: Headers = admin) => {
    const response = await server.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers,
      ...(payload === undefined ? {} : { payload }),
    });
    return {
      status: response.statusCode,
      body: String(response.headers['content-type']).startsWith('text/csv') ? response.body : (response.json() as any),
      headers: response.headers,
    };
  };
  const list = async (query: string, headers: Headers = admin) => {
    const answer = await call('GET', `audit-log${query}`, undefined, headers);
    expect(answer.status).toBe(200);
    return answer.body as {
      data: Array<Record<string, any>>;
      meta: { total: number; page: number; page_size: number; pageSize: number; total_is_estimate?: boolean };
    };
  };

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    admin = await server.auth('Super Admin');
    adminId = server.userIds.get('admin@example.com')!;
    salesId = server.userIds.get('sales@example.com')!;
    // The sales executive may read the audit log: it sees only what its scope reaches.
    const [role] = await server.db.query<{ id: number }>(`SELECT id FROM roles WHERE name = 'Sales Executive'`);
    const read = await call('GET', `roles/${role!.id}/permissions`);
    const granted = await call(
      'PUT',
      `roles/${role!.id}/permissions`,
      { permissions: { ...read.body.data, AUDIT_LOG: ['view', 'download'] } },
      { ...admin, 'if-match': String(read.headers.etag) },
    );
    expect(granted.status).toBe(200);
    sales = await server.auth('Sales Executive');
    const country = (
      await call('POST', 'countries', { name: 'India', iso2: 'IN', iso3: 'IND', region: 'asia', currency_code: 'INR' })
    ).body.data.id;
    const profile = (
      await call('POST', 'executives', {
        user_id: salesId,
        employee_code: 'EXE-1',
        region: 'west',
        mobile: '9876543213',
      })
    ).body.data.id;
    const subscriber = (name: string, email: string, executive?: number) => ({
      name,
      email,
      mobile: '9876543214',
      country_id: country,
      ...(executive ? { executive_id: executive } : {}),
    });
    mine = (await call('POST', 'subscribers', subscriber('Mine Subscriber', 'mine@example.com', profile))).body.data.id;
    theirs = (await call('POST', 'subscribers', subscriber('Other Subscriber', 'other@example.com'))).body.data.id;
    for (const [id, key] of [
      [mine, 'audit-mine-1'],
      [theirs, 'audit-theirs-1'],
    ] as const) {
      expect(
        (await call('POST', `subscribers/${id}/top-ups`, { points: 5, amount: 50, idempotency_key: key })).status,
      ).toBe(201);
    }
    expect(
      (await call('PUT', 'user/profile', { first_name: 'Sunil', last_name: 'Seller', mobile: '9876543219' }, sales))
        .status,
    ).toBe(200);
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)(
    'answers entries newest first with who, from where, the module, record, action and changes; paged',
    async () => {
      const page = await list('?_page_size=2');
      expect(page.meta).toEqual({ total: expect.any(Number), page: 1, page_size: 2, pageSize: 2 });
      expect(page.data).toHaveLength(2);
      expect(page.data[0]).toMatchObject({
        user_id: salesId,
        user_email: 'sales@example.com',
        module: 'USERS',
        record_id: salesId,
        action: 'profile',
        client_address: '127.0.0.1',
      });
      expect(page.data[0]!.changes).toMatchObject({ last_name: { before: 'Sales', after: 'Seller' } });
      expect(page.data[0]!.request_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(page.data[0]!.id).toBeGreaterThan(page.data[1]!.id);
      const second = await list('?_page_size=2&_page=2');
      expect(second.data[0]!.id).toBeLessThan(page.data[1]!.id);
      expect((await call('GET', 'audit-log?_page_size=101')).body.errors).toHaveProperty('_page_size');
      // The names this list took before are still accepted, as the same page; both names at once are refused.
      const former = await list('?pageSize=2&page=2');
      expect(former.data.map((entry) => entry.id)).toEqual(second.data.map((entry) => entry.id));
      expect(former.meta).toEqual(second.meta);
      expect((await call('GET', 'audit-log?pageSize=101')).body.errors).toHaveProperty('pageSize');
      const both = await call('GET', 'audit-log?page=2&_page=2');
      expect(both.status).toBe(400);
      expect(both.body.errors).toEqual({ page: 'Give _page alone: page is its former name.' });
    },
  );

  it.skipIf(skip)(
    'filters by user, module and action, record, and date range (dates or date-times, `to` inclusive)',
    async () => {
      expect((await list(`?user_id=${salesId}`)).data.every((entry) => entry.user_id === salesId)).toBe(true);
      const topUps = await list('?module=SUBSCRIBERS&action=top_up');
      expect(topUps.data.map((entry) => entry.record_id).sort()).toEqual([mine, theirs].sort());
      expect((await list(`?module=SUBSCRIBERS&record_id=${theirs}`)).data.map((entry) => entry.action)).toContain(
        'top_up',
      );
      const today = new Date().toISOString().slice(0, 10);
      expect((await list(`?from=${today}&to=${today}`)).meta.total).toBe((await list('')).meta.total);
      expect((await list('?to=2000-01-01')).meta.total).toBe(0);
      expect((await list(`?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).meta.total).toBe(
        0,
      );
      expect((await call('GET', `audit-log?record_id=${theirs}`)).body.errors).toHaveProperty('module');
      expect((await call('GET', 'audit-log?from=2026-02-30')).body.errors).toHaveProperty('from');
      expect((await call('GET', 'audit-log?action=stolen')).body.errors).toHaveProperty('action');
    },
  );

  it.skipIf(skip)(
    'an executive reads only entries about the subscribers assigned to them and their own actions',
    async () => {
      const seen = (await list('?_page_size=100', sales)).data;
      expect(seen.length).toBeGreaterThan(0);
      for (const entry of seen)
        expect(entry.user_id === salesId || (entry.module === 'SUBSCRIBERS' && entry.record_id === mine)).toBe(true);
      expect(seen.some((entry) => entry.record_id === mine && entry.action === 'top_up')).toBe(true);
      expect((await list(`?module=SUBSCRIBERS&record_id=${theirs}`, sales)).meta.total).toBe(0);
      expect((await list(`?user_id=${adminId}&module=SUBSCRIBERS&record_id=${theirs}`, sales)).data).toEqual([]);
      const exported = await call('GET', 'audit-log/export', undefined, sales);
      expect(exported.body).not.toContain(`,${theirs},Points topped up`);
      expect(exported.body).toContain(`,${mine},Points topped up`);
      const filters = await call('GET', 'audit-log/filters', undefined, sales);
      expect(filters.body.data.users).toEqual([{ key: salesId, label: 'Sunil Seller (sales@example.com)' }]);
    },
  );

  it.skipIf(skip)("the export is the list's filters as CSV, with labels of modules and actions", async () => {
    const exported = await call('GET', 'audit-log/export?module=SUBSCRIBERS&action=top_up');
    expect(exported.status).toBe(200);
    expect(exported.headers['content-disposition']).toMatch(
      /^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = String(exported.body).trim().split('\r\n');
    expect(lines[0]).toBe(
      'When,User,User id,API token,Client address,Request id,Module,Record id,Action,Changes,Details',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(',Subscribers,');
    expect(lines[1]).toContain(',Points topped up,');
    expect((await call('GET', `audit-log/export?record_id=${mine}`)).status).toBe(400);
  });

  it.skipIf(skip)('the filters offer the users, modules and actions with their labels', async () => {
    const { data } = (await call('GET', 'audit-log/filters')).body;
    expect(data.users).toContainEqual({ key: adminId, label: expect.stringContaining('admin@example.com') });
    expect(data.modules).toContainEqual({ key: 'SUBSCRIBERS', label: 'Subscribers' });
    expect(data.actions).toContainEqual({ key: 'login_failed', label: 'Sign-in failed' });
  });

  it.skipIf(skip)(
    'needs a token (401) and the audit permission (403): view for the list, download too for the export',
    async () => {
      for (const url of ['audit-log', 'audit-log/export', 'audit-log/filters'])
        expect((await call('GET', url, undefined, {})).status).toBe(401);
      const operator = await server.auth('Data Operator');
      for (const url of ['audit-log', 'audit-log/export', 'audit-log/filters'])
        expect((await call('GET', url, undefined, operator)).status).toBe(403);
      const viewer = await server.auth('Read Only');
      expect((await call('GET', 'audit-log', undefined, viewer)).status).toBe(200);
      expect((await call('GET', 'audit-log/export', undefined, viewer)).status).toBe(403);
      for (const url of ['AUDIT-LOG', 'audit%2Dlog', '/audit-log'])
        expect((await call('GET', url, undefined, {})).status).toBeOneOf([401, 404]);
    },
  );

  it.skipIf(skip)(
    `counts exactly up to ${EXACT_TOTAL_UP_TO.toLocaleString('en')} matching entries and estimates past it`,
    async () => {
      await server.db.query(
        `INSERT INTO audit_log (user_id, module, record_id, action, at) SELECT $1, 'BULK_TEST', g, 'update', now() - g * interval '1 second' FROM generate_series(1, $2::int) g`,
        [adminId, EXACT_TOTAL_UP_TO + 500],
      );
      await server.db.query('ANALYZE audit_log');
      const page = await list('?module=BULK_TEST&_page_size=100&_page=3');
      expect(page.data).toHaveLength(100);
      expect(page.data[0]!.record_id).toBe(201);
      expect(page.meta).toMatchObject({ total_is_estimate: true, totalIsEstimate: true });
      expect(page.meta.total).toBeGreaterThan(EXACT_TOTAL_UP_TO);
      const exact = await list(
        '?module=BULK_TEST&to=' + encodeURIComponent(new Date(Date.now() - 10_400_000).toISOString()),
      );
      expect(exact.meta).toEqual({ total: expect.any(Number), page: 1, page_size: 25, pageSize: 25 });
      expect(exact.meta.total).toBeLessThan(EXACT_TOTAL_UP_TO);
      // Far past the bound the planner's estimate alone answers (nothing is counted).
      await server.db.query(
        `INSERT INTO audit_log (user_id, module, action) SELECT $1, 'BULK_FAR', 'update' FROM generate_series(1, 60000)`,
        [adminId],
      );
      await server.db.query('ANALYZE audit_log');
      const far = await list('?module=BULK_FAR');
      expect(far.meta.total_is_estimate).toBe(true);
      expect(far.meta.total).toBeGreaterThan(50_000);
      expect(far.meta.total).toBeLessThan(70_000);
    },
  );
});
