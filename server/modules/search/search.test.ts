import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, verifyByEmailedLink, type TestServer } from '../../testing/testServer.ts';
import { SEARCHABLE_RESOURCES } from './search.ts';

const databases = await testDatabases();

type Found = Array<{
  resource: string;
  label: string;
  records: Array<{ id: number; label: string; details: string[] }>;
}>;

describe.each(databases)('GET search on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  const search = async (query: string, headers: Record<string, string> = admin, path = '/api/v1/search') => {
    const response = await server.app.inject({ method: 'GET', url: `${path}?${query}`, headers });
    return { status: response.statusCode, body: response.json() as { data: Found; errors?: Record<string, string> } };
  };
  const found = async (q: string, headers: Record<string, string> = admin, limit = 5) =>
    (await search(`q=${encodeURIComponent(q)}&limit=${limit}`, headers)).body.data;
  const resourcesOf = (groups: Found) => groups.map((group) => group.resource);
  const idsIn = (groups: Found, resource: string) =>
    groups.find((group) => group.resource === resource)?.records.map((record) => record.id) ?? [];

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind, {}, { demoSubscribers: 100 });
    admin = await server.auth('Super Admin');
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)('asks for a session: 401 without a token, in any spelling of its path', async () => {
    for (const path of [
      '/api/v1/search',
      '/api/v1/%73earch',
      '/api/v1/searc%68',
      '/%61pi/v1/search',
      '/api/v1/search/',
    ]) {
      const response = await server.app.inject({ method: 'GET', url: `${path}?q=spice` });
      expect(response.statusCode, path).toBe(401);
    }
    expect((await search('q=spice', { authorization: 'Bearer not-a-token' })).status).toBe(401);
  });

  it.skipIf(skip)('the same answer however the path is spelled; no other case of it is a route', async () => {
    const plain = await found('spice');
    expect(plain.length).toBeGreaterThan(0);
    expect((await search('q=spice&limit=5', admin, '/api/v1/%73earch')).body.data).toEqual(plain);
    for (const path of ['/api/v1//search', '/api/v1/SEARCH', '/API/v1/search'])
      expect((await search('q=spice', admin, path)).status, path).toBe(404);
  });

  it.skipIf(skip)('a 400 names the field: too short, only spaces, no q, a limit out of range', async () => {
    for (const query of ['q=ab', 'q=%20%20%20%20', 'q=%20ab%20', 'q=a%20b', '']) {
      const refused = await search(query);
      expect(refused.status, query).toBe(400);
      expect(Object.keys(refused.body.errors ?? {}), query).toEqual(['q']);
    }
    for (const query of ['q=spice&limit=0', 'q=spice&limit=21', 'q=spice&limit=two']) {
      const refused = await search(query);
      expect(refused.status, query).toBe(400);
      expect(Object.keys(refused.body.errors ?? {}), query).toEqual(['limit']);
    }
  });

  it.skipIf(skip)(
    'finds records of several resources by their search text, grouped in manifest order, at most `limit` each',
    async () => {
      const groups = await found('Spice');
      expect(resourcesOf(groups)).toEqual(expect.arrayContaining(['SUBSCRIBERS', 'COMPANY']));
      const order = SEARCHABLE_RESOURCES.map((resource) => resource.key);
      expect(resourcesOf(groups)).toEqual([...resourcesOf(groups)].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
      for (const group of groups) {
        expect(group.records.length).toBeGreaterThan(0);
        expect(group.records.length).toBeLessThanOrEqual(5);
      }
      expect(groups.find((group) => group.resource === 'SUBSCRIBERS')?.label).toBe('Subscribers');
      for (const group of await found('Spice', admin, 2)) expect(group.records.length).toBeLessThanOrEqual(2);
      // By e-mail: a subscriber's label is its name, found by another of its search fields.
      const [first] = await server.db.query<{ id: number; name: string; email: string; mobile: string }>(
        'SELECT id, name, email, mobile FROM subscribers ORDER BY id LIMIT 1',
      );
      expect(idsIn(await found(first!.email.toUpperCase()), 'SUBSCRIBERS')).toEqual([first!.id]);
      expect((await found(`  ${first!.email}  `)).find((group) => group.resource === 'SUBSCRIBERS')?.records).toEqual([
        { id: first!.id, label: first!.name, details: [first!.email, first!.mobile] },
      ]);
    },
  );

  it.skipIf(skip)(
    'a label that starts with the words comes first; wildcards and quotes typed are literal',
    async () => {
      const country = { iso2: 'ZQ', iso3: 'ZQA', region: 'asia', currency_code: 'ZQD' };
      const inner = await server.app.inject({
        method: 'POST',
        url: '/api/v1/countries',
        headers: admin,
        payload: { ...country, name: 'Upper Zembla' },
      });
      const leading = await server.app.inject({
        method: 'POST',
        url: '/api/v1/countries',
        headers: admin,
        payload: { ...country, iso2: 'ZR', iso3: 'ZRA', name: 'Zembla' },
      });
      expect([inner.statusCode, leading.statusCode]).toEqual([201, 201]);
      const countries = (await found('zembla')).find((group) => group.resource === 'COUNTRIES')?.records;
      expect(countries).toEqual([
        { id: leading.json().data.id, label: 'Zembla', details: ['ZRA', 'Asia'] },
        { id: inner.json().data.id, label: 'Upper Zembla', details: ['ZQA', 'Asia'] },
      ]);
      for (const odd of ['%%%', '___', '\\\\\\', "' OR 1=1 --", 'zem%la', 'zembla_'])
        expect(await found(odd), odd).toEqual([]);
      expect(resourcesOf(await found('Zémbla'))).toEqual([]);
    },
  );

  it.skipIf(skip)(
    'finds only in the resources the caller may view: a data operator finds no subscribers or companies',
    async () => {
      const operator = await server.auth('Data Operator');
      expect(resourcesOf(await found('spice'))).toContain('SUBSCRIBERS');
      const operatorGroups = await found('spice', operator);
      expect(resourcesOf(operatorGroups)).not.toContain('SUBSCRIBERS');
      expect(resourcesOf(operatorGroups)).not.toContain('COMPANY');
      // What the operator may view is found: the data columns of the demo data.
      expect(resourcesOf(await found('port_of', operator))).toEqual(['DATA_FIELDS_MODULE']);
      const permissions = (
        await server.app.inject({ method: 'GET', url: '/api/v1/user/permission', headers: operator })
      ).json() as { data: Record<string, { actions: Record<string, unknown> }> };
      for (const resource of resourcesOf(await found('por', operator, 20)))
        expect(permissions.data[resource]?.actions, resource).toHaveProperty('view');
    },
  );

  it.skipIf(skip)('a role that may view nothing finds nothing', async () => {
    const role = await server.app.inject({
      method: 'POST',
      url: '/api/v1/roles',
      headers: admin,
      payload: { name: 'Sees Nothing' },
    });
    expect(role.statusCode).toBe(201);
    const email = 'nobody@example.com';
    const password = 'Nobody@12345';
    const user = await server.app.inject({
      method: 'POST',
      url: '/api/v1/users',
      headers: admin,
      payload: {
        first_name: 'No',
        last_name: 'Body',
        email,
        mobile: '9876543219',
        role_id: role.json().data.id,
        password,
        confirm_password: password,
      },
    });
    expect(user.statusCode).toBe(201);
    await verifyByEmailedLink(server, email);
    const login = await server.app.inject({ method: 'POST', url: '/api/v1/login', payload: { email, password } });
    const nobody = { authorization: `Bearer ${(login.json() as { data: { access: string } }).data.access}` };
    const answer = await search('q=spice', nobody);
    expect(answer).toEqual({ status: 200, body: { data: [] } });
    // Given view on one resource, the role finds in that one only.
    const version = (
      await server.app.inject({
        method: 'GET',
        url: `/api/v1/roles/${role.json().data.id}/permissions`,
        headers: admin,
      })
    ).headers.etag as string;
    const granted = await server.app.inject({
      method: 'PUT',
      url: `/api/v1/roles/${role.json().data.id}/permissions`,
      headers: { ...admin, 'if-match': version },
      payload: { permissions: { MASTERS: ['view'], COUNTRIES: ['view'] } },
    });
    expect(granted.statusCode, granted.body).toBe(200);
    const countries = await found('ind', nobody);
    expect(resourcesOf(countries)).toEqual(['COUNTRIES']);
    expect(countries[0]!.records.map((record) => record.label)).toContain('India');
  });

  it.skipIf(skip)(
    "each record carries a second line that tells alike records apart, within the caller's scope, in any spelling of the path",
    async () => {
      const post = async (url: string, payload: object, headers = admin) => {
        const response = await server.app.inject({ method: 'POST', url: `/api/v1/${url}`, headers, payload });
        expect(response.statusCode, response.body).toBe(201);
        return (response.json() as { data: { id: number } }).data.id;
      };
      const sales = await server.auth('Sales Executive');
      const [country] = await server.db.query<{ id: number }>('SELECT id FROM countries ORDER BY id LIMIT 1');
      const elsewhere = await post('executives', {
        user_id: server.userIds.get('admin@example.com'),
        employee_code: 'EXE-9001',
        region: 'north',
        mobile: '9876500002',
      });
      const alike = (n: number) => ({
        name: 'Kavya Raman',
        email: `kavya.raman${n}@example.org`,
        mobile: `98765432${n}0`,
        country_id: country!.id,
      });
      const details = (n: number) => [`kavya.raman${n}@example.org`, `98765432${n}0`];
      // Five named alike: three added by the executive (so theirs), one of another executive, one of nobody.
      const mine = [
        await post('subscribers', alike(1), sales),
        await post('subscribers', alike(2), sales),
        await post('subscribers', alike(3), sales),
      ];
      const others = [
        await post('subscribers', { ...alike(4), executive_id: elsewhere }),
        await post('subscribers', alike(5)),
      ];
      const subscribers = async (q: string, headers = admin, path = '/api/v1/search') =>
        (await search(`q=${encodeURIComponent(q)}&limit=10`, headers, path)).body.data.find(
          (group) => group.resource === 'SUBSCRIBERS',
        )?.records ?? [];

      const everyone = await subscribers('kavya raman');
      expect(everyone.map((record) => record.label)).toEqual(Array(5).fill('Kavya Raman'));
      expect(new Set(everyone.map((record) => record.details.join(' · '))).size).toBe(5);
      expect(everyone.find((record) => record.id === others[0])?.details).toEqual(details(4));
      expect(await subscribers('kavya raman', admin, '/api/v1/%73earch')).toEqual(everyone);

      // The executive's answer names their three only: another's record, and its e-mail and mobile, stay out of it.
      const theirs = await subscribers('kavya raman', sales);
      expect(theirs.map((record) => record.id).sort()).toEqual([...mine].sort());
      expect(theirs.map((record) => record.details).sort()).toEqual([details(1), details(2), details(3)]);
      expect(await subscribers('kavya raman', sales, '/api/v1/searc%68')).toEqual(theirs);
      for (const n of [4, 5]) expect(await subscribers(`98765432${n}0`, sales), `subscriber ${n}`).toEqual([]);
      expect(JSON.stringify(await found('kavya', sales, 20))).not.toMatch(/kavya\.raman[45]/);
      // A data operator, who may not view subscribers, gets no group of them, so none of their details.
      expect(JSON.stringify(await found('kavya', await server.auth('Data Operator'), 20))).not.toContain('kavya.raman');

      // A voucher's discount in words and its last day; a resource whose manifest names no `describe`, nothing.
      const [voucher] = await server.db.query<{
        code: string;
        discount_type: string;
        discount_value: string;
        valid_to: string;
      }>(
        'SELECT code, discount_type, discount_value::text AS discount_value, valid_to::text AS valid_to FROM vouchers ORDER BY id LIMIT 1',
      );
      const vouchers = (await found(voucher!.code)).find((group) => group.resource === 'VOUCHER')!.records;
      const discount = `${voucher!.discount_type === 'percent' ? 'Percent' : 'Flat amount'} ${voucher!.discount_value}`;
      expect(vouchers.find((record) => record.label === voucher!.code)?.details).toEqual([discount, voucher!.valid_to]);
      const columns = (await found('port_of')).find((group) => group.resource === 'DATA_FIELDS_MODULE')!.records;
      for (const record of columns) expect(record.details).toEqual([]);
    },
  );

  it.skipIf(skip)('an executive finds only the subscribers assigned to them', async () => {
    const sales = await server.auth('Sales Executive');
    const assigned = await server.db.query<{ id: number; email: string }>(
      `SELECT s.id, s.email FROM subscribers s JOIN executive_profiles e ON e.id = s.executive_id JOIN users u ON u.id = e.user_id WHERE u.email = 'sales@example.com' ORDER BY s.id`,
    );
    const others = await server.db.query<{ id: number; email: string }>(
      'SELECT id, email FROM subscribers WHERE executive_id IS NULL ORDER BY id LIMIT 3',
    );
    expect(assigned.length).toBeGreaterThan(0);
    const mine = new Set(assigned.map((row) => row.id));
    const seen = idsIn(await found('example.com', sales, 20), 'SUBSCRIBERS');
    expect(seen.length).toBeGreaterThan(0);
    for (const id of seen) expect(mine.has(id), `subscriber ${id}`).toBe(true);
    expect(idsIn(await found(assigned[0]!.email, sales), 'SUBSCRIBERS')).toEqual([assigned[0]!.id]);
    for (const other of others) {
      expect(idsIn(await found(other.email, sales), 'SUBSCRIBERS'), other.email).toEqual([]);
      expect(idsIn(await found(other.email), 'SUBSCRIBERS'), other.email).toEqual([other.id]);
    }
  });
});
