import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';

const databases = await testDatabases();

interface View {
  id: number;
  name: string;
  mine: boolean;
  shared_role_id: number | null;
  query: Record<string, string>;
  dropped: string[];
  version: number;
}
type Answer = {
  data: {
    views: View[];
    share_roles: Array<{ id: number; name: string }>;
    preferences: { columns: string[] | null; default_view_id: number | null; dropped: string[] };
  } & View;
  message?: string;
  errors?: Record<string, string>;
};

describe.each(databases)('saved views and list settings on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let sales: Record<string, string>;
  let viewer: Record<string, string>;
  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: unknown,
  ) => {
    const response = await server.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return {
      status: response.statusCode,
      body: (response.body.startsWith('{') ? response.json() : {}) as Answer,
      headers: response.headers,
    };
  };
  const roleOf = async (name: string) =>
    Number((await server.db.query<{ id: number }>('SELECT id FROM roles WHERE name = $1', [name]))[0]!.id);
  const viewsOf = async (headers: Record<string, string>, list = 'vouchers') =>
    (await call('GET', `views/${list}`, headers)).body.data;

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    admin = await server.auth('Super Admin');
    sales = await server.auth('Sales Executive');
    viewer = await server.auth('Read Only');
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)(
    'a private view: saved, listed for its owner only, renamed with If-Match, deleted, each write in the audit log',
    async () => {
      const saved = await call('POST', 'views/vouchers', admin, {
        name: ' Flat ones ',
        query: {
          discount_type: 'flat,percent',
          sort: '-code',
          size: '50',
          columns: 'code,valid_to',
          valid_to_range: 'last_7_days',
        },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(201);
      expect(saved.headers.etag).toBe('"1"');
      expect(saved.body.data).toMatchObject({
        name: 'Flat ones',
        mine: true,
        shared_role_id: null,
        dropped: [],
        version: 1,
      });
      const { id } = saved.body.data;
      // The list's answer carries the view as its save answered it, timestamps written alike.
      expect((await viewsOf(admin)).views).toEqual([saved.body.data]);
      expect((await viewsOf(viewer)).views).toEqual([]);
      // Another user's private view is not theirs to change, nor to know of.
      expect(
        (await call('PUT', `views/vouchers/${id}`, { ...viewer, 'if-match': '"1"' }, { name: 'Mine now', query: {} }))
          .status,
      ).toBe(404);
      expect((await call('DELETE', `views/vouchers/${id}`, { ...viewer, 'if-match': '*' })).status).toBe(404);
      // Views are per list.
      expect(
        (await call('PUT', `views/plans/${id}`, { ...admin, 'if-match': '"1"' }, { name: 'Elsewhere', query: {} }))
          .status,
      ).toBe(404);

      expect(
        (await call('PUT', `views/vouchers/${id}`, admin, { name: 'Renamed', query: saved.body.data.query })).status,
      ).toBe(428);
      const renamed = await call(
        'PUT',
        `views/vouchers/${id}`,
        { ...admin, 'if-match': '"1"' },
        { name: 'Renamed', query: saved.body.data.query },
      );
      expect(renamed.status).toBe(200);
      expect(renamed.body.data).toMatchObject({ name: 'Renamed', version: 2 });
      expect(
        (await call('PUT', `views/vouchers/${id}`, { ...admin, 'if-match': '"1"' }, { name: 'Stale', query: {} }))
          .status,
      ).toBe(412);
      expect((await call('DELETE', `views/vouchers/${id}`, { ...admin, 'if-match': '"1"' })).status).toBe(412);
      expect((await call('DELETE', `views/vouchers/${id}`, { ...admin, 'if-match': '"2"' })).status).toBe(200);
      expect((await viewsOf(admin)).views).toEqual([]);
      const entries = await server.db.query<{ action: string; details: { view_id: number } }>(
        "SELECT action, details FROM audit_log WHERE action LIKE 'view_%' ORDER BY id",
      );
      expect(entries.map((entry) => [entry.action, entry.details.view_id])).toEqual([
        ['view_saved', id],
        ['view_saved', id],
        ['view_deleted', id],
      ]);
    },
  );

  it.skipIf(skip)(
    'shared with a role: its users see it and cannot change it; users of another role do not see it',
    async () => {
      const salesRole = await roleOf('Sales Executive');
      const mine = await call('POST', 'views/subscribers', sales, {
        name: 'My trials',
        query: { status: 'trial' },
        shared_role_id: salesRole,
      });
      expect(mine.status, JSON.stringify(mine.body)).toBe(201);
      // A user shares with their own role only; a user with full access with any role.
      const elsewhere = await call('POST', 'views/subscribers', sales, {
        name: 'For viewers',
        query: {},
        shared_role_id: await roleOf('Data Operator'),
      });
      expect(elsewhere.status).toBe(400);
      expect(Object.keys(elsewhere.body.errors ?? {})).toEqual(['shared_role_id']);
      const fromAdmin = await call('POST', 'views/subscribers', admin, {
        name: 'Expired for sales',
        query: { status: 'expired' },
        shared_role_id: salesRole,
      });
      expect(fromAdmin.status).toBe(201);
      expect(
        (await call('POST', 'views/subscribers', admin, { name: 'Nobody', query: {}, shared_role_id: 999_999 })).body
          .errors,
      ).toEqual({ shared_role_id: 'No such role.' });

      const seenBySales = (await viewsOf(sales, 'subscribers')).views;
      expect(seenBySales.map((view) => [view.name, view.mine])).toEqual([
        ['Expired for sales', false],
        ['My trials', true],
      ]);
      expect(
        (
          await call(
            'PUT',
            `views/subscribers/${fromAdmin.body.data.id}`,
            { ...sales, 'if-match': '*' },
            { name: 'Taken', query: {} },
          )
        ).status,
      ).toBe(404);
      expect(
        (await call('DELETE', `views/subscribers/${fromAdmin.body.data.id}`, { ...sales, 'if-match': '*' })).status,
      ).toBe(404);
      expect((await viewsOf(admin, 'subscribers')).views.map((view) => view.name)).toEqual(['Expired for sales']);
      expect((await viewsOf(sales, 'subscribers')).share_roles).toEqual([{ id: salesRole, name: 'Sales Executive' }]);
      expect((await viewsOf(admin, 'subscribers')).share_roles.map((role) => role.name)).toEqual(
        expect.arrayContaining(['Super Admin', 'Sales Executive', 'Read Only']),
      );
    },
  );

  it.skipIf(skip)('the default view and the columns, per user per list', async () => {
    const view = (await call('POST', 'views/vouchers', admin, { name: 'Default', query: { discount_type: 'flat' } }))
      .body.data;
    const set = await call('PUT', 'list-preferences/vouchers', admin, {
      default_view_id: view.id,
      columns: ['valid_to', 'code'],
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect((await viewsOf(admin)).preferences).toEqual({
      columns: ['valid_to', 'code'],
      default_view_id: view.id,
      dropped: [],
    });
    // What the body leaves out stays.
    await call('PUT', 'list-preferences/vouchers', admin, { columns: null });
    expect((await viewsOf(admin)).preferences).toEqual({ columns: null, default_view_id: view.id, dropped: [] });
    expect((await viewsOf(admin, 'plans')).preferences.default_view_id).toBeNull();
    expect((await viewsOf(viewer)).preferences.default_view_id).toBeNull();
    // Another user's private view, or a view of another list, cannot be a default.
    expect((await call('PUT', 'list-preferences/vouchers', viewer, { default_view_id: view.id })).body.errors).toEqual({
      default_view_id: 'No such view of this list that you may open.',
    });
    expect(
      Object.keys(
        (await call('PUT', 'list-preferences/vouchers', admin, { columns: ['code', 'no_such_field'] })).body.errors ??
          {},
      ),
    ).toEqual(['columns.1']);
    expect((await call('PUT', 'list-preferences/vouchers', admin, {})).status).toBe(400);
    // Deleting the view forgets it as the default.
    await call('DELETE', `views/vouchers/${view.id}`, { ...admin, 'if-match': '*' });
    expect((await viewsOf(admin)).preferences.default_view_id).toBeNull();
    expect(
      (await server.db.query("SELECT 1 FROM audit_log WHERE action = 'list_preferences'")).length,
    ).toBeGreaterThanOrEqual(2);
  });

  it.skipIf(skip)(
    'a view naming what the manifest no longer has opens without it, naming what was left out',
    async () => {
      const owner = server.userIds.get('admin@example.com');
      const query = {
        discount_type: 'flat,bogus',
        region: 'west',
        sort: '-gone',
        columns: 'code,phone,valid_to',
        size: '500',
        q: 'DIW',
        valid_to_range: 'next_year',
      };
      const [stored] = await server.db.query<{ id: number }>(
        "INSERT INTO saved_views (list_key, owner_id, name, query) VALUES ('VOUCHER', $1, 'Old', $2) RETURNING id",
        [owner, JSON.stringify(query)],
      );
      await server.db.query(
        "INSERT INTO list_preferences (user_id, list_key, columns) VALUES ($1, 'VOUCHER', '{code,phone}') ON CONFLICT (user_id, list_key) DO UPDATE SET columns = excluded.columns",
        [owner],
      );
      const { views, preferences } = await viewsOf(admin);
      const old = views.find((view) => view.id === Number(stored!.id))!;
      expect(old.query).toEqual({ discount_type: 'flat', columns: 'code,valid_to', q: 'DIW' });
      expect(old.dropped.sort()).toEqual(
        ['discount_type: bogus', 'gone', 'phone', 'region', 'size: 500', 'valid_to_range'].sort(),
      );
      expect(preferences).toMatchObject({ columns: ['code'], dropped: ['phone'] });
      // Written anew, a view must name only what the list has.
      const refused = await call('POST', 'views/vouchers', admin, { name: 'New', query });
      expect(refused.status).toBe(400);
      expect(Object.keys(refused.body.errors ?? {})).toEqual(['query']);
    },
  );

  it.skipIf(skip)('bad input: a 400 naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ query: {} }, 'name'],
      [{ name: '   ', query: {} }, 'name'],
      [{ name: 'x'.repeat(101), query: {} }, 'name'],
      [{ name: 'No query' }, 'query'],
      [{ name: 'Nested', query: { code: { a: 1 } } }, 'query.code'],
      [{ name: 'Extra', query: {}, owner_id: 1 }, 'owner_id'],
    ];
    for (const [body, field] of cases) {
      const answer = await call('POST', 'views/vouchers', admin, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(answer.body.errors ?? {}), JSON.stringify(body)).toEqual([field]);
    }
  });

  it.skipIf(skip)('access: no token 401, a role without view on the module 403', async () => {
    expect((await call('GET', 'views/vouchers', {})).status).toBe(401);
    expect((await call('POST', 'views/vouchers', {}, { name: 'x', query: {} })).status).toBe(401);
    expect((await call('PUT', 'list-preferences/vouchers', {}, { columns: null })).status).toBe(401);
    const refusedList = await call('GET', 'views/users', viewer);
    const granted =
      (
        await server.db.query(
          "SELECT 1 FROM role_permissions p JOIN roles r ON r.id = p.role_id WHERE r.name = 'Read Only' AND p.module = 'USERS' AND p.action = 'view'",
        )
      ).length > 0;
    expect(refusedList.status).toBe(granted ? 200 : 403);
    expect((await call('GET', 'views/roles', sales)).status).toBe(403);
    expect((await call('POST', 'views/roles', sales, { name: 'x', query: {} })).status).toBe(403);
    expect((await call('PUT', 'list-preferences/roles', sales, { columns: null })).status).toBe(403);
    expect((await call('DELETE', 'views/roles/1', { ...sales, 'if-match': '*' })).status).toBe(403);
  });

  it.skipIf(skip)('odd spellings of the paths reach the same rule', async () => {
    const spellings = [
      '/api/v1/%76iews/vouchers',
      '/api/v1//views/vouchers',
      '/api/v1/views//vouchers',
      '/api/v1/VIEWS/vouchers',
      '/api/v1/views/Vouchers',
      '/api/v1/views/vouchers/',
      '/api/v1/views/%76ouchers',
    ];
    for (const url of spellings) {
      const anonymous = await server.app.inject({ method: 'GET', url });
      expect([401, 404], url).toContain(anonymous.statusCode);
      const refused = await server.app.inject({
        method: 'GET',
        url: url.replace('vouchers', 'roles').replace('Vouchers', 'Roles').replace('%76ouchers', 'roles'),
        headers: sales,
      });
      expect([403, 404], url).toContain(refused.statusCode);
    }
  });
});
