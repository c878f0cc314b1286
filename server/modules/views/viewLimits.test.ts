import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAVED_VIEW_LIMITS } from '../../../contract/savedViews.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';

const databases = await testDatabases();

interface View {
  id: number;
  name: string;
  mine: boolean;
  shared_role_id: number | null;
  query: Record<string, string>;
  version: number;
}
type Answer = {
  data: { views: View[]; preferences: { default_view_id: number | null } } & View;
  meta?: { total: number; page: number; page_size: number };
  message?: string;
  errors?: Record<string, string>;
};

/** Keys of the vouchers list whose values are kept as written (search, a relation, a date range, a boolean). */
const FREE_KEYS = ['q', 'plan_id', 'valid_to_from', 'valid_to_to', 'is_active'];

/** A vouchers query of exactly `bytes` bytes as compact JSON, each value within the schema's 2,000 characters. */
function queryOfBytes(bytes: number): Record<string, string> {
  const query: Record<string, string> = {};
  for (const key of FREE_KEYS) {
    const room = bytes - Buffer.byteLength(JSON.stringify({ ...query, [key]: '' }));
    if (room <= 0) break;
    query[key] = 'x'.repeat(Math.min(2000, room));
  }
  return query;
}

describe.each(databases)('the limits of saved views, and their list a page at a time, on $kind', ({ kind, skip }) => {
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
  /** Views stored as older releases could store them, past any limit. */
  const stored = async (listKey: string, owner: string, count: number, sharedRoleId: number | null, prefix: string) =>
    server.db.query(
      `INSERT INTO saved_views (list_key, owner_id, name, query, shared_role_id)
       SELECT $1, $2, $3 || lpad(n::text, 3, '0'), '{}', $4 FROM generate_series(1, $5::int) n`,
      [listKey, server.userIds.get(owner), prefix, sharedRoleId, count],
    );

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    admin = await server.auth('Super Admin');
    sales = await server.auth('Sales Executive');
    viewer = await server.auth('Read Only');
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)("a view's definition: 8 KB of JSON at most, counted in bytes; its name: 100 characters", async () => {
    const atLimit = queryOfBytes(SAVED_VIEW_LIMITS.definitionBytes);
    expect(Buffer.byteLength(JSON.stringify(atLimit))).toBe(8192);
    expect((await call('POST', 'views/vouchers', admin, { name: 'Full', query: atLimit })).status).toBe(201);
    const over = await call('POST', 'views/vouchers', admin, { name: 'Too full', query: queryOfBytes(8193) });
    expect(over.status).toBe(400);
    expect(over.body.errors).toEqual({
      query: 'A view holds at most 8,192 bytes of search, filters and settings (as JSON); this one has 8,193.',
    });
    // Fewer characters than bytes: what is stored and sent is bytes.
    const wide = {
      q: 'é'.repeat(2000),
      plan_id: 'x'.repeat(2000),
      valid_to_from: 'x'.repeat(2000),
      valid_to_to: 'x'.repeat(200),
    };
    expect(JSON.stringify(wide).length).toBeLessThan(8192);
    expect(
      Object.keys((await call('POST', 'views/vouchers', admin, { name: 'Wide', query: wide })).body.errors ?? {}),
    ).toEqual(['query']);
    // A change is held to the same size.
    const small = (await call('POST', 'views/vouchers', admin, { name: 'Small', query: { q: 'a' } })).body.data;
    const grown = await call(
      'PUT',
      `views/vouchers/${small.id}`,
      { ...admin, 'if-match': '"1"' },
      { name: 'Small', query: queryOfBytes(9000) },
    );
    expect(Object.keys(grown.body.errors ?? {})).toEqual(['query']);

    expect(
      (await call('POST', 'views/vouchers', admin, { name: 'n'.repeat(SAVED_VIEW_LIMITS.nameLength), query: {} }))
        .status,
    ).toBe(201);
    const long = await call('POST', 'views/vouchers', admin, { name: 'n'.repeat(101), query: {} });
    expect(long.status).toBe(400);
    expect(long.body.errors?.name).toMatch(/100/);
  });

  it.skipIf(skip)(
    '50 private views per user per list: the 51st is a 400 naming the limit; sharing one, or another list, makes room',
    async () => {
      await stored('SUBSCRIPTIONS', 'sales@example.com', 49, null, 'Mine ');
      const fiftieth = await call('POST', 'views/plans', sales, { name: 'Fiftieth', query: {} });
      expect(fiftieth.status, JSON.stringify(fiftieth.body)).toBe(201);
      const refused = await call('POST', 'views/plans', sales, { name: 'One more', query: {} });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual({
        shared_role_id: 'You have 50 private views of the plans list, the most a user may keep (50): delete one first.',
      });
      // Other lists, and other users, have their own room.
      expect((await call('POST', 'views/subscribers', sales, { name: 'Elsewhere', query: {} })).status).toBe(201);
      expect((await call('POST', 'views/plans', viewer, { name: 'Someone else', query: {} })).status).toBe(201);
      // A shared view is no private one: the role has room for it, and sharing one frees room.
      const salesRole = await roleOf('Sales Executive');
      expect(
        (await call('POST', 'views/plans', sales, { name: 'For the team', query: {}, shared_role_id: salesRole }))
          .status,
      ).toBe(201);
      const shared = await call(
        'PUT',
        `views/plans/${fiftieth.body.data.id}`,
        { ...sales, 'if-match': '"1"' },
        { name: 'Fiftieth', query: {}, shared_role_id: salesRole },
      );
      expect(shared.status).toBe(200);
      expect((await call('POST', 'views/plans', sales, { name: 'One more', query: {} })).status).toBe(201);
      // Back to private, it no longer fits.
      const back = await call(
        'PUT',
        `views/plans/${fiftieth.body.data.id}`,
        { ...sales, 'if-match': '"2"' },
        { name: 'Fiftieth', query: {}, shared_role_id: null },
      );
      expect(Object.keys(back.body.errors ?? {})).toEqual(['shared_role_id']);
    },
  );

  it.skipIf(skip)(
    '50 views shared per role per list, whoever shares them: a Super Admin sharing with a role counts against that role',
    async () => {
      const salesRole = await roleOf('Sales Executive');
      await stored('SUBSCRIBERS', 'sales@example.com', 48, salesRole, 'Team ');
      const fromAdmin = await call('POST', 'views/subscribers', admin, {
        name: 'From the admin',
        query: {},
        shared_role_id: salesRole,
      });
      expect(fromAdmin.status).toBe(201);
      expect(
        (await call('POST', 'views/subscribers', sales, { name: 'Fiftieth', query: {}, shared_role_id: salesRole }))
          .status,
      ).toBe(201);
      const full =
        'This role has 50 views of the subscribers list shared with it, the most a role may have (50): one must be deleted or made private first.';
      expect(
        (await call('POST', 'views/subscribers', sales, { name: 'Fifty-first', query: {}, shared_role_id: salesRole }))
          .body.errors,
      ).toEqual({ shared_role_id: full });
      expect(
        (await call('POST', 'views/subscribers', admin, { name: 'Also full', query: {}, shared_role_id: salesRole }))
          .body.errors,
      ).toEqual({ shared_role_id: full });
      const adminPrivate = (await call('POST', 'views/subscribers', admin, { name: 'Private first', query: {} })).body
        .data;
      const moved = await call(
        'PUT',
        `views/subscribers/${adminPrivate.id}`,
        { ...admin, 'if-match': '"1"' },
        { name: 'Private first', query: {}, shared_role_id: salesRole },
      );
      expect(moved.body.errors).toEqual({ shared_role_id: full });
      // Another role has its own room; a view that stays shared with the full role may still be renamed or changed.
      expect(
        (
          await call('POST', 'views/subscribers', admin, {
            name: 'For operators',
            query: {},
            shared_role_id: await roleOf('Data Operator'),
          })
        ).status,
      ).toBe(201);
      const renamed = await call(
        'PUT',
        `views/subscribers/${fromAdmin.body.data.id}`,
        { ...admin, 'if-match': '"1"' },
        { name: 'Renamed', query: { status: 'trial' }, shared_role_id: salesRole },
      );
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      // Made private, it frees the role's room.
      expect(
        (
          await call(
            'PUT',
            `views/subscribers/${fromAdmin.body.data.id}`,
            { ...admin, 'if-match': '"2"' },
            { name: 'Renamed', query: {}, shared_role_id: null },
          )
        ).status,
      ).toBe(200);
      expect(
        (await call('POST', 'views/subscribers', sales, { name: 'Fifty-first', query: {}, shared_role_id: salesRole }))
          .status,
      ).toBe(201);
    },
  );

  it.skipIf(skip)('saves at once cannot both take the last room', async () => {
    await stored('LOOKUP_TYPES', 'viewer@example.com', 47, null, 'Lookups ');
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        call('POST', 'views/lookup-types', viewer, { name: `At once ${index}`, query: {} }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 400, 400, 400]);
    const [row] = await server.db.query<{ count: number }>(
      "SELECT count(*) AS count FROM saved_views WHERE list_key = 'LOOKUP_TYPES' AND owner_id = $1",
      [server.userIds.get('viewer@example.com')],
    );
    expect(row!.count).toBe(50);
  });

  it.skipIf(skip)(
    'the list of views a page at a time, by name, with the total; the default view and one view wherever they are',
    async () => {
      const adminRole = await roleOf('Super Admin');
      await stored('COUNTRIES', 'admin@example.com', 80, null, 'Country view ');
      // Past the limits, as stored before them: still listed, a page at a time.
      await stored('COUNTRIES', 'sales@example.com', 70, adminRole, 'Shared country view ');
      const names = (views: View[]) => views.map((view) => view.name);
      const first = await call('GET', 'views/countries', admin);
      expect(first.status).toBe(200);
      expect(first.body.meta).toEqual({ total: 150, page: 1, page_size: SAVED_VIEW_LIMITS.pageSize });
      expect(first.body.data.views).toHaveLength(100);
      const second = await call('GET', 'views/countries?_page=2', admin);
      expect(second.body.data.views).toHaveLength(50);
      const all = [...names(first.body.data.views), ...names(second.body.data.views)];
      expect(new Set(all).size).toBe(150);
      expect(all).toEqual([...all].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
      const small = await call('GET', 'views/countries?_page=3&_page_size=7', admin);
      expect(small.body.meta).toEqual({ total: 150, page: 3, page_size: 7 });
      expect(names(small.body.data.views)).toEqual(all.slice(14, 21));
      expect((await call('GET', 'views/countries?_page=99', admin)).body.data.views).toEqual([]);

      // The default view stays the default when it is not on the page asked for, and opens by its id.
      const last = second.body.data.views.at(-1)!;
      expect((await call('PUT', 'list-preferences/countries', admin, { default_view_id: last.id })).status).toBe(200);
      expect((await call('GET', 'views/countries?_page_size=1', admin)).body.data.preferences.default_view_id).toBe(
        last.id,
      );
      const one = await call('GET', `views/countries/${last.id}`, admin);
      expect(one.status).toBe(200);
      expect(one.headers.etag).toBe('"1"');
      expect(one.body.data).toEqual(last);
      // Once the user may no longer open it, it is no default.
      await server.db.query('UPDATE saved_views SET shared_role_id = NULL WHERE id = $1', [last.id]);
      expect((await call('GET', 'views/countries', admin)).body.data.preferences.default_view_id).toBeNull();
      expect((await call('GET', `views/countries/${last.id}`, admin)).status).toBe(404);

      for (const [query, field] of [
        ['_page_size=101', '_page_size'],
        ['_page=0', '_page'],
        ['_page_size=ten', '_page_size'],
        ['_pagesize=5', '_pagesize'],
      ]) {
        const refused = await call('GET', `views/countries?${query}`, admin);
        expect(refused.status, query).toBe(400);
        expect(Object.keys(refused.body.errors ?? {}), query).toEqual([field]);
      }
    },
  );

  it.skipIf(skip)(
    "one view: no token 401, a role without the list 403, another user's private view or another list's 404, odd spellings",
    async () => {
      const mine = (await call('POST', 'views/vouchers', viewer, { name: 'Viewer only', query: {} })).body.data;
      expect((await call('GET', `views/vouchers/${mine.id}`, viewer)).status).toBe(200);
      expect((await call('GET', `views/vouchers/${mine.id}`, {})).status).toBe(401);
      expect((await call('GET', `views/vouchers/${mine.id}`, admin)).status).toBe(404);
      expect((await call('GET', `views/vouchers/${mine.id}`, sales)).status).toBe(403);
      expect((await call('GET', `views/subscribers/${mine.id}`, viewer)).status).toBe(404);
      expect((await call('GET', 'views/vouchers/0', viewer)).status).toBe(400);
      const rolesView = (
        await call('POST', 'views/roles', admin, {
          name: 'Roles',
          query: {},
          shared_role_id: await roleOf('Sales Executive'),
        })
      ).body.data;
      expect((await call('GET', `views/roles/${rolesView.id}`, sales)).status).toBe(403);
      expect((await call('GET', 'views/roles', sales)).status).toBe(403);

      const spellings = [
        `/api/v1/%76iews/vouchers/${mine.id}`,
        `/api/v1//views/vouchers/${mine.id}`,
        `/api/v1/VIEWS/vouchers/${mine.id}`,
        `/api/v1/views/Vouchers/${mine.id}`,
        `/api/v1/views/vouchers/${mine.id}/`,
        `/api/v1/views/vouchers/%3${mine.id}`,
      ];
      for (const url of spellings) {
        expect([401, 404], url).toContain((await server.app.inject({ method: 'GET', url })).statusCode);
        const other = await server.app.inject({ method: 'GET', url, headers: admin });
        expect([400, 404], url).toContain(other.statusCode);
        expect(other.body, url).not.toContain('Viewer only');
      }
    },
  );
});
