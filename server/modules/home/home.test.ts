import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOME_PATH } from '../../../contract/home.ts';
import { MODULE, RESOURCES, entityResource } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import { upsertRole, upsertUser } from '../../seed/roles.ts';
import { startTestServer, testDatabases, tokenClaims, type TestServer } from '../../testing/testServer.ts';
import type { HomeCard } from '../../../contract/home.ts';
import { monthRanges } from './cards.ts';

const databases = await testDatabases();

type Headers = Record<string, string>;

describe.each(databases)('GET home on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Headers;
  const get = (url: string, headers: Headers) => server.app.inject({ method: 'GET', url, headers });
  const home = async (headers: Headers, path = '/api/v1/home') => {
    const response = await get(path, headers);
    expect(response.statusCode, `${path}: ${response.body}`).toBe(200);
    return (response.json() as { data: { cards: HomeCard[] } }).data.cards;
  };
  const keys = (cards: HomeCard[]) => cards.map((card) => card.key);
  const card = (cards: HomeCard[], key: string) => cards.find((candidate) => candidate.key === key)!;

  /** A console list link as the list's API answers it: the resource whose screen has that path, with the same query. */
  const listed = async (link: string, headers: Headers) => {
    const url = new URL(link, 'http://console.invalid');
    const listResource = RESOURCES.find((candidate) => candidate.routes.view?.path === url.pathname);
    expect(listResource, link).toBeDefined();
    const response = await get(
      `/api/v1/${listResource!.api}${url.search}${url.search ? '&' : '?'}_page_size=1`,
      headers,
    );
    expect(response.statusCode, `${link}: ${response.body}`).toBe(200);
    return response.json() as { data: Array<Record<string, unknown>>; meta: { total: number } };
  };

  /** Signs in a new user of a new role holding `grants` (module -> actions). */
  const userWith = async (name: string, grants: Record<string, string[]>) => {
    const roleId = await upsertRole(server.db, {
      name,
      description: 'home test',
      permissions: (module, actions) => actions.filter((action) => grants[module]?.includes(action)),
    });
    const email = `${name.toLowerCase().replace(/\W+/g, '-')}@example.com`;
    await upsertUser(
      server.db,
      server.app.passwords,
      { email, password: 'Home@12345', firstName: 'Home', lastName: 'Test', role: name },
      roleId,
    );
    const login = await server.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { email, password: 'Home@12345' },
    });
    const { access } = (login.json() as { data: { access: string } }).data;
    return { headers: { authorization: `Bearer ${access}` }, defaultUrl: tokenClaims(access).default_url };
  };

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind, {}, { demoSubscribers: 300 });
    admin = await server.auth('Super Admin');
    const subscribers = quoted(entityResource(MODULE.subscribers)!.entity.table);
    const { lastMonth } = monthRanges(new Date());
    // Known states and ages, whatever the demo data made: some expiring, some trials, some joined last month.
    await server.db.query(`UPDATE ${subscribers} SET status = 'expiring' WHERE id % 7 = 0`);
    await server.db.query(`UPDATE ${subscribers} SET status = 'trial' WHERE id % 7 = 1`);
    await server.db.query(`UPDATE ${subscribers} SET created_at = $1::date + 3 WHERE id % 4 = 0`, [lastMonth.from]);
    await server.db.query(
      `INSERT INTO payments (subscriber_id, kind, amount, received_at) SELECT id, 'top_up', 1250.50, now() FROM ${subscribers} WHERE id % 50 = 0`,
    );
    await server.db.query(
      `INSERT INTO payments (subscriber_id, kind, amount, received_at) SELECT id, 'subscription', 9999, $1::date + 1 FROM ${subscribers} WHERE id % 60 = 0`,
      [lastMonth.from],
    );
    const uploads = quoted(entityResource(MODULE.dataUploadLogs)!.entity.table);
    const [india, kenya] = await server.db.query<{ id: number }>(
      `SELECT id FROM countries WHERE name IN ('India', 'Kenya') ORDER BY name`,
    );
    await server.db.query(
      `INSERT INTO ${uploads} (country_id, trade_direction, period, file_name, size, status, created_at) VALUES
         ($1, 'import', '2026-08', 'a.csv', 10, 'published', now() - interval '3 days'),
         ($1, 'import', '2026-09', 'b.csv', 10, 'failed', now() - interval '2 days'),
         ($1, 'export', '2026-09', 'c.csv', 10, 'processing', now() - interval '1 day'),
         ($2, 'export', '2026-09', 'e.csv', 10, 'needs_review', now() - interval '12 hours'),
         ($2, 'import', '2026-09', 'd.csv', 10, 'pending', now())`,
      [india!.id, kenya!.id],
    );
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)(
    'asks for a session: 401 without a token or with a bad one, in any spelling of its path',
    async () => {
      for (const path of ['/api/v1/home', '/api/v1/%68ome', '/api/v1/home/', '/%61pi/v1/home'])
        expect((await get(path, {})).statusCode, path).toBe(401);
      expect((await get('/api/v1/home', { authorization: 'Bearer not-a-token' })).statusCode).toBe(401);
    },
  );

  it.skipIf(skip)('the same answer however the path is spelled; no other case of it is a route', async () => {
    const plain = await home(admin);
    expect(await home(admin, '/api/v1/%68ome')).toEqual(plain);
    expect(await home(admin, '/api/v1/home/')).toEqual(plain);
    for (const path of ['/api/v1//home', '/api/v1/HOME', '/API/v1/home', '/api/v1/home/x'])
      expect((await get(path, admin)).statusCode, path).toBe(404);
  });

  it.skipIf(skip)('ROUTE-15 each demo role lands on the home screen, with the cards its permissions open', async () => {
    const expected: Record<string, string[]> = {
      'Super Admin': [
        'expiring_subscribers',
        'open_trials',
        'new_subscribers',
        'revenue',
        'upload_queue',
        'failed_uploads',
        'last_uploads',
        'recent_changes',
      ],
      'Sales Executive': ['expiring_subscribers', 'open_trials', 'new_subscribers'],
      'Data Operator': ['upload_queue', 'failed_uploads', 'last_uploads'],
      'Read Only': [
        'expiring_subscribers',
        'open_trials',
        'new_subscribers',
        'revenue',
        'upload_queue',
        'failed_uploads',
        'last_uploads',
        'recent_changes',
      ],
    };
    for (const [role, cards] of Object.entries(expected)) {
      expect(tokenClaims((await server.login(role)).access).default_url, role).toBe(HOME_PATH);
      expect(keys(await home(await server.auth(role))), role).toEqual(cards);
    }
  });

  it.skipIf(skip)(
    'every count is what the list it links to shows, for the administrator and the executive alike',
    async () => {
      for (const role of ['Super Admin', 'Sales Executive', 'Data Operator']) {
        const headers = await server.auth(role);
        for (const { figures } of await home(headers)) {
          for (const figure of figures.filter((each) => each.unit === 'count')) {
            for (const { link, value } of [figure, ...(figure.previous ? [figure.previous] : [])]) {
              if (link !== null) expect((await listed(link, headers)).meta.total, `${role}: ${link}`).toBe(value);
            }
          }
        }
      }
      const cards = await home(admin);
      expect(card(cards, 'expiring_subscribers').figures[0]!.value).toBeGreaterThan(0);
      expect(card(cards, 'upload_queue').figures[0]).toMatchObject({
        value: 2,
        link: '/data-upload-management/uploads?status=pending,processing',
      });
      expect(card(cards, 'upload_queue').figures[1]).toMatchObject({
        value: 1,
        label: 'uploads waiting for review',
        link: '/data-upload-management/uploads?status=needs_review',
      });
      expect(card(cards, 'failed_uploads').figures[0]).toMatchObject({
        value: 1,
        link: '/data-upload-management/uploads?status=failed',
      });
      const newSubscribers = card(cards, 'new_subscribers').figures[0]!;
      const [ages] = await server.db.query<{ this_month: number; last_month: number }>(
        `SELECT count(*) FILTER (WHERE created_at >= date_trunc('month', now()))::int AS this_month,
              count(*) FILTER (WHERE created_at < date_trunc('month', now()) AND created_at >= date_trunc('month', now()) - interval '1 month')::int AS last_month FROM subscribers`,
      );
      expect([newSubscribers.value, newSubscribers.previous?.value]).toEqual([ages!.this_month, ages!.last_month]);
      expect(newSubscribers.link).toMatch(
        /^\/subscriber-management\/subscribers\?created_at_from=\d{4}-\d{2}-\d{2}.*&created_at_to=/,
      );
    },
  );

  it.skipIf(skip)('an executive counts only their own subscribers', async () => {
    const sales = await home(await server.auth('Sales Executive'));
    const [own] = await server.db.query<{ expiring: number; trials: number }>(
      `SELECT count(*) FILTER (WHERE s.status = 'expiring')::int AS expiring, count(*) FILTER (WHERE s.status = 'trial')::int AS trials
         FROM subscribers s JOIN executive_profiles e ON e.id = s.executive_id WHERE e.user_id = $1`,
      [server.userIds.get('sales@example.com')],
    );
    expect(card(sales, 'expiring_subscribers').figures[0]!.value).toBe(own!.expiring);
    expect(card(sales, 'open_trials').figures[0]!.value).toBe(own!.trials);
    expect(card(sales, 'expiring_subscribers').figures[0]!.value).toBeLessThan(
      card(await home(admin), 'expiring_subscribers').figures[0]!.value,
    );
  });

  it.skipIf(skip)(
    'a change to the subscribers shows on the very next request, though the figures are kept between changes',
    async () => {
      const figure = (cards: HomeCard[], key: string) => card(cards, key).figures[0]!.value;
      const before = await home(admin);
      expect(await home(admin)).toEqual(before);
      const [trial] = await server.db.query<{ id: number }>(
        `SELECT id FROM subscribers WHERE status = 'trial' ORDER BY id LIMIT 1`,
      );
      await server.db.query(`UPDATE subscribers SET status = 'expiring' WHERE id = $1`, [trial!.id]);
      const after = await home(admin);
      expect(figure(after, 'expiring_subscribers')).toBe(figure(before, 'expiring_subscribers') + 1);
      expect(figure(after, 'open_trials')).toBe(figure(before, 'open_trials') - 1);
    },
  );

  it.skipIf(skip)('revenue is the payments received each month, as the admin report sums them', async () => {
    const revenue = card(await home(admin), 'revenue').figures[0]!;
    const [paid] = await server.db.query<{ this_month: number; last_month: number }>(
      `SELECT coalesce(sum(amount) FILTER (WHERE received_at >= date_trunc('month', now())), 0)::float8 AS this_month,
              coalesce(sum(amount) FILTER (WHERE received_at < date_trunc('month', now()) AND received_at >= date_trunc('month', now()) - interval '1 month'), 0)::float8 AS last_month FROM payments`,
    );
    expect([revenue.value, revenue.previous?.value]).toEqual([paid!.this_month, paid!.last_month]);
    expect(revenue.value).toBeGreaterThan(0);
    for (const { link, value } of [revenue, revenue.previous!]) {
      const url = new URL(link!, 'http://console.invalid');
      expect(url.pathname).toBe('/admin-reporting-management/reports');
      const report = (await get(`/api/v1/reports/summary${url.search}`, admin)).json() as {
        data: { revenue: Array<{ revenue: number }> };
      };
      expect(
        report.data.revenue.reduce((sum, row) => sum + Number(row.revenue), 0),
        link!,
      ).toBeCloseTo(value, 2);
    }
  });

  it.skipIf(skip)(
    'lists the last upload of each country and direction, each the first row of the uploads list it links to',
    async () => {
      const operator = await server.auth('Data Operator');
      const { items } = card(await home(operator), 'last_uploads');
      expect(items.map((item) => [item.label, item.detail])).toEqual([
        ['Kenya, import', '2026-09: Waiting for the file'],
        ['Kenya, export', '2026-09: Waiting for review'],
        ['India, export', '2026-09: Processing'],
        ['India, import', '2026-09: Failed'],
      ]);
      for (const item of items) {
        const first = (await listed(item.link, operator)).data[0]!;
        expect(first.created_at, item.link).toBe(item.at);
      }
    },
  );

  it.skipIf(skip)(
    "recent changes are the audit log's newest entries, each linking to the entries of its record",
    async () => {
      const { items, link } = card(await home(admin), 'recent_changes');
      expect(link).toBe('/user-management/audit-log');
      const log = (await get('/api/v1/audit-log?_page_size=8', admin)).json() as { data: Array<{ at: string }> };
      expect(items.map((item) => item.at)).toEqual(log.data.map((entry) => entry.at));
      const url = new URL(items[0]!.link, 'http://console.invalid');
      const entries = (await get(`/api/v1/audit-log${url.search}`, admin)).json() as { data: Array<{ at: string }> };
      expect(entries.data.map((entry) => entry.at)).toContain(items[0]!.at);
    },
  );

  it.skipIf(skip)(
    'ROUTE-15 a card only with the permission of its list; without any card, the landing path is the first routable one',
    async () => {
      const vouchers = await userWith('Home Vouchers Only', { VOUCHER: ['view'], USER_PROFILE: ['view'] });
      expect(await home(vouchers.headers)).toEqual([]);
      expect(vouchers.defaultUrl).toBe('/voucher-management/vouchers');
      const auditor = await userWith('Home Auditor', { AUDIT_LOG: ['view'] });
      expect(keys(await home(auditor.headers))).toEqual(['recent_changes']);
      expect(auditor.defaultUrl).toBe(HOME_PATH);
      // Held to their own subscribers: no company-wide revenue, though the report is open to them.
      const scoped = await userWith('Home Scoped Reporter', {
        SUBSCRIBERS: ['view', 'executive_access'],
        ADMIN_REPORTING: ['view'],
      });
      expect(keys(await home(scoped.headers))).toEqual(['expiring_subscribers', 'open_trials', 'new_subscribers']);
      const reporter = await userWith('Home Reporter', { ADMIN_REPORTING: ['view'] });
      expect(keys(await home(reporter.headers))).toEqual(['revenue']);
    },
  );
});
