import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, verifyByEmailedLink, type TestServer } from '../../testing/testServer.ts';

const databases = await testDatabases();
type Answer = {
  data: Record<string, unknown> & { id: number };
  message?: string;
  errors?: Record<string, string>;
  meta?: { total: number; page: number; page_size: number };
};

const COUNTRY = { name: 'India', iso2: 'IN', iso3: 'IND', region: 'asia', currency_code: 'INR' };

describe.each(databases)('resources on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    headers = admin,
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
      text: response.body,
      headers: response.headers,
    };
  };
  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    admin = await server.auth('Super Admin');
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)(
    'create, get, update, status, verify-free delete of a country, with the answers of docs/api.md',
    async () => {
      const created = await call('POST', 'countries', COUNTRY);
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({ ...COUNTRY, is_active: true });
      const id = created.body.data.id;
      expect((await call('GET', `countries/${id}`)).body.data.name).toBe('India');
      const updated = await call(
        'PUT',
        `countries/${id}`,
        { ...COUNTRY, name: 'Bharat' },
        { ...admin, 'if-match': '"1"' },
      );
      expect(updated.status).toBe(200);
      expect(updated.body.data.name).toBe('Bharat');
      const inactive = await call(
        'PATCH',
        `countries/${id}/status`,
        { is_active: false },
        { ...admin, 'if-match': '"2"' },
      );
      expect(inactive.body.data.is_active).toBe(false);
      expect((await call('DELETE', `countries/${id}`, undefined, { ...admin, 'if-match': '"3"' })).status).toBe(200);
      expect((await call('GET', `countries/${id}`)).status).toBe(404);
    },
  );

  it.skipIf(skip)(
    'a voucher ending before it starts is a 400 on valid_to (notBefore), on create and on update',
    async () => {
      const voucher = {
        code: 'DIWALI26',
        discount_type: 'percent',
        discount_value: 10,
        valid_from: '2026-10-20',
        valid_to: '2026-10-19',
      };
      const refused = await call('POST', 'vouchers', voucher);
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual({ valid_to: 'Should be on or after Valid from.' });
      expect((await call('GET', 'vouchers')).body.meta?.total).toBe(0);
      const created = await call('POST', 'vouchers', { ...voucher, valid_to: '2026-10-20' });
      expect(created.status).toBe(201);
      const moved = await call('PUT', `vouchers/${created.body.data.id}`, {
        ...voucher,
        valid_from: '2026-11-01',
        valid_to: '2026-10-31',
      });
      expect(moved.status).toBe(400);
      expect(moved.body.errors).toEqual({ valid_to: 'Should be on or after Valid from.' });
      expect((await call('GET', `vouchers/${created.body.data.id}`)).body.data).toMatchObject({
        valid_from: '2026-10-20',
        valid_to: '2026-10-20',
      });
    },
  );

  it.skipIf(skip)(
    'a code kept in capitals is stored so whatever case it comes in, on create and update, and clashes so too',
    async () => {
      const voucher = {
        code: 'holi27',
        discount_type: 'flat',
        discount_value: 100,
        valid_from: '2027-03-01',
        valid_to: '2027-03-31',
      };
      const created = await call('POST', 'vouchers', voucher);
      expect(created.status, created.text).toBe(201);
      expect(created.body.data.code).toBe('HOLI27');
      const clash = await call('POST', 'vouchers', { ...voucher, code: 'Holi27' });
      expect(clash.status).toBe(400);
      expect(Object.keys(clash.body.errors ?? {})).toEqual(['code']);
      const renamed = await call(
        'PUT',
        `vouchers/${created.body.data.id}`,
        { ...voucher, code: 'holi2027' },
        { ...admin, 'if-match': '"1"' },
      );
      expect(renamed.status, renamed.text).toBe(200);
      const [stored] = await server.db.query<{ code: string }>('SELECT code FROM vouchers WHERE id = $1', [
        created.body.data.id,
      ]);
      expect(stored?.code).toBe('HOLI2027');
      // Upper-casing makes no bad code good: a space is still refused.
      expect((await call('POST', 'vouchers', { ...voucher, code: 'holi 28' })).body.errors).toEqual({
        code: 'Use 4 to 20 capital letters or digits.',
      });
    },
  );

  it.skipIf(skip)(
    'a mobile number in any usual spelling is stored as its ten digits; anything else is refused as before',
    async () => {
      const employee = {
        first_name: 'Meera',
        last_name: 'Shah',
        email: 'meera.mobile@example.com',
        department: 'sales',
        joining_date: '2026-01-05',
      };
      for (const [given, index] of [
        ['+91 98765 12345', 1],
        ['098765-12345', 2],
        ['(+91) 98765-12345', 3],
        ['919876512345', 4],
      ] as const) {
        const created = await call('POST', 'employees', {
          ...employee,
          email: `meera.mobile${index}@example.com`,
          mobile: given,
        });
        expect(created.status, `${given}: ${created.text}`).toBe(201);
        expect(created.body.data.mobile, given).toBe('9876512345');
      }
      for (const refused of ['98765 1234', '+1 415 555 0100', '5876512345']) {
        const answer = await call('POST', 'employees', { ...employee, mobile: refused });
        expect(answer.status, refused).toBe(400);
        expect(answer.body.errors, refused).toEqual({ mobile: 'Invalid mobile number.' });
      }
    },
  );

  it.skipIf(skip)('bad input: each a 400 naming the field, and nothing stored', async () => {
    // The message names the field by its manifest title for the console's toast; an unknown one by its name in words.
    const cases: Array<[unknown, string, string]> = [
      [{ ...COUNTRY, iso2: undefined }, 'iso2', 'ISO alpha-2: This field is required.'],
      [{ ...COUNTRY, iso2: 'india' }, 'iso2', 'ISO alpha-2: Expect max 2 but got 5.'],
      [{ ...COUNTRY, name: 42 }, 'name', 'Name: Invalid value.'],
      [{ ...COUNTRY, region: 'mars' }, 'region', 'Region: Invalid value.'],
      [{ ...COUNTRY, admin: true }, 'admin', 'Admin: This field is not allowed.'],
      [{ ...COUNTRY, name: 'x'.repeat(500) }, 'name', 'Name: Expect max 80 but got 500.'],
    ];
    for (const [payload, field, message] of cases) {
      const answer = await call('POST', 'countries', payload);
      expect(answer.status, JSON.stringify(payload)).toBe(400);
      expect(answer.body.message).toBe(message);
      expect(Object.keys(answer.body.errors ?? {})).toContain(field);
    }
    const proto = await server.app.inject({
      method: 'POST',
      url: '/api/v1/countries',
      headers: { ...admin, 'content-type': 'application/json' },
      payload: `{"name":"A","__proto__":{"is_admin":true}}`,
    });
    expect(proto.statusCode).toBe(400);
    expect(Object.keys(proto.json().errors)).toEqual(['__proto__']);
    const notJson = await server.app.inject({
      method: 'POST',
      url: '/api/v1/countries',
      headers: { ...admin, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(notJson.statusCode).toBe(400);
    const huge = await server.app.inject({
      method: 'POST',
      url: '/api/v1/countries',
      headers: admin,
      payload: { ...COUNTRY, name: 'x'.repeat(300 * 1024) },
    });
    expect(huge.statusCode).toBe(413);
    expect((await call('GET', 'countries')).body.meta?.total).toBe(0);
  });

  it.skipIf(skip)('the manifest field messages come back as the console shows them (FORM-12 server side)', async () => {
    const answer = await call('POST', 'users', {
      first_name: ' ',
      last_name: 'L',
      email: 'not-an-email',
      mobile: '123',
      role_id: 1,
      password: 'weak',
      confirm_password: 'other',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toMatchObject({
      email: 'Invalid Email.',
      mobile: 'Invalid mobile number.',
      password: 'Invalid password, Must Have Numbers & Special Character.',
      confirm_password: 'Password does not match.',
    });
    // Several fields: the first two by title with their texts, the rest counted.
    expect(answer.body.message).toBe(
      'First name: Empty or white space not allowed; Email: Invalid Email; and 3 more fields.',
    );
  });

  it.skipIf(skip)('a unique-key clash names the field', async () => {
    await call('POST', 'countries', { ...COUNTRY, iso2: 'FR', iso3: 'FRA', name: 'France', currency_code: 'EUR' });
    const clash = await call('POST', 'countries', {
      ...COUNTRY,
      iso2: 'FR',
      iso3: 'FRX',
      name: 'France 2',
      currency_code: 'EUR',
    });
    expect(clash.status).toBe(400);
    expect(clash.body.errors).toEqual({ iso2: 'This value is already in use.' });
    expect(clash.body.message).toBe('ISO alpha-2: This value is already in use.');
  });

  it.skipIf(skip)(
    'a composite unique key: a lookup code is unique within its lookup type, and a clash names the code and the type',
    async () => {
      const colours = (await call('POST', 'lookup-types', { code: 'colour', name: 'Colour' })).body.data.id;
      const sizes = (await call('POST', 'lookup-types', { code: 'size', name: 'Size' })).body.data.id;
      const red = await call('POST', 'lookups', { lookup_type_id: colours, code: 'red', label: 'Red' });
      expect(red.status, red.text).toBe(201);
      const clash = await call('POST', 'lookups', { lookup_type_id: colours, code: 'red', label: 'Another red' });
      expect(clash.status).toBe(400);
      expect(clash.body).toEqual({
        message: 'Code: This value is already in use for this Lookup type.',
        errors: { code: 'This value is already in use for this Lookup type.' },
      });
      expect((await call('POST', 'lookups', { lookup_type_id: sizes, code: 'red', label: 'Red size' })).status).toBe(
        201,
      );
      const blue = await call('POST', 'lookups', { lookup_type_id: colours, code: 'blue', label: 'Blue' });
      expect(blue.status).toBe(201);

      const renamed = await call(
        'PUT',
        `lookups/${blue.body.data.id}`,
        { lookup_type_id: colours, code: 'red', label: 'Blue' },
        { ...admin, 'if-match': '"1"' },
      );
      expect(renamed.status).toBe(400);
      expect(renamed.body.errors).toEqual({ code: 'This value is already in use for this Lookup type.' });
      const moved = await call(
        'PUT',
        `lookups/${red.body.data.id}`,
        { lookup_type_id: sizes, code: 'red', label: 'Red' },
        { ...admin, 'if-match': '"1"' },
      );
      expect(moved.status).toBe(400);
      expect(moved.body.errors).toEqual({ code: 'This value is already in use for this Lookup type.' });
      expect((await call('GET', `lookups/${blue.body.data.id}`)).body.data).toMatchObject({
        lookup_type_id: colours,
        code: 'blue',
        label: 'Blue',
      });
      expect((await call('GET', `lookups/${red.body.data.id}`)).body.data).toMatchObject({
        lookup_type_id: colours,
        code: 'red',
        label: 'Red',
      });
      expect((await call('GET', `lookups?lookup_type_id=${colours}`)).body.meta?.total).toBe(2);
      // A single-field key keeps its plain message.
      expect((await call('POST', 'lookup-types', { code: 'colour', name: 'Colours again' })).body.errors).toEqual({
        code: 'This value is already in use.',
      });
    },
  );

  it.skipIf(skip)('SQL metacharacters are stored and read back verbatim, and are literal in search', async () => {
    const nasty = `O'Brien"; DROP TABLE users; -- 100% _x_ \\ é`;
    const created = await call('POST', 'roles', { name: nasty, description: nasty });
    expect(created.status, created.text).toBe(201);
    expect((await call('GET', `roles/${created.body.data.id}`)).body.data).toMatchObject({
      name: nasty,
      description: nasty,
    });
    await call('POST', 'roles', { name: 'Plain 100 percent' });
    const found = await call('GET', `roles?q=${encodeURIComponent('100%')}`);
    expect((found.body.data as unknown as Array<{ name: string }>).map((row) => row.name)).toEqual([nasty]);
    expect((await call('GET', 'users')).status).toBe(200);
  });

  it.skipIf(skip)('lists page, sort, search and filter in SQL, with relation labels', async () => {
    const india = await call('POST', 'countries', {
      ...COUNTRY,
      iso2: 'ID',
      iso3: 'IDN',
      name: 'Indonesia',
      currency_code: 'IDR',
    });
    for (let index = 0; index < 25; index += 1) {
      const answer = await call('POST', 'companies', {
        name: `Company ${String(index).padStart(2, '0')}`,
        iec: `IEC${String(index).padStart(7, '0')}`,
        city: 'Pune',
        state: 'MH',
        country_id: india.body.data.id,
      });
      expect(answer.status, answer.text).toBe(201);
    }
    const page = await call('GET', 'companies?_page=2&_page_size=10&_sort=name&_order=desc');
    expect(page.body.meta).toEqual({ total: 25, page: 2, page_size: 10 });
    const rows = page.body.data as unknown as Array<{ name: string; country_id_label: string }>;
    expect(rows.map((row) => row.name)).toEqual(
      Array.from({ length: 10 }, (_, index) => `Company ${String(14 - index).padStart(2, '0')}`),
    );
    expect(rows[0]!.country_id_label).toBe('Indonesia');
    expect((await call('GET', 'companies?q=company%2007')).body.meta?.total).toBe(1);
    expect((await call('GET', `companies?country_id=${india.body.data.id}&_page_size=1`)).body.meta?.total).toBe(25);
    expect((await call('GET', 'companies?_sort=password')).status).toBe(400);
    expect((await call('GET', 'companies?_page_size=1000')).status).toBe(400);
    expect((await call('GET', 'companies?unknown_filter=1')).status).toBe(400);
    const csv = await call('GET', 'companies/export?q=company%2001&_columns=name,country_id');
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.text.trim().split('\r\n')).toEqual(['Name,Country', 'Company 01,Indonesia']);
    const options = await call('GET', 'countries/options?q=indo');
    expect(options.body.data).toEqual([{ value: india.body.data.id, label: 'Indonesia' }]);
  });

  it.skipIf(skip)(
    'options: a search answers 50 at most, by label; id answers the one record, inactive too, to label a value already chosen',
    async () => {
      await call('POST', 'lookup-types', { code: 'zz', name: 'Seed' });
      const created: number[] = [];
      for (let index = 0; index < 60; index += 1) {
        created.push(
          (
            await call('POST', 'lookup-types', {
              code: `opt${index}`,
              name: `Option ${String(index).padStart(2, '0')}`,
            })
          ).body.data.id,
        );
      }
      const first = (await call('GET', 'lookup-types/options')).body.data as unknown as Array<{
        value: number;
        label: string;
      }>;
      expect(first).toHaveLength(50);
      const last = created.at(-1)!;
      expect(first.map((option) => option.value)).not.toContain(last);
      expect((await call('GET', 'lookup-types/options?q=option%2059')).body.data).toEqual([
        { value: last, label: 'Option 59' },
      ]);
      await call('PATCH', `lookup-types/${last}/status`, { is_active: false }, { ...admin, 'if-match': '*' });
      expect((await call('GET', 'lookup-types/options?q=option%2059')).body.data).toEqual([]);
      expect((await call('GET', `lookup-types/options?id=${last}`)).body.data).toEqual([
        { value: last, label: 'Option 59' },
      ]);
      expect((await call('GET', 'lookup-types/options?id=999999')).body.data).toEqual([]);
      expect((await call('GET', 'lookup-types/options?id=abc')).status).toBe(400);
    },
  );

  it.skipIf(skip)('bulk status and bulk delete; a record still referenced cannot be deleted (409)', async () => {
    const country = await call('POST', 'countries', {
      ...COUNTRY,
      iso2: 'JP',
      iso3: 'JPN',
      name: 'Japan',
      currency_code: 'JPY',
    });
    const companies = await call('GET', 'companies?_page_size=3');
    const ids = (companies.body.data as unknown as Array<{ id: number }>).map((row) => row.id);
    expect((await call('PATCH', 'companies/status', { ids, is_active: false })).body.data).toEqual({ updated: 3 });
    expect((await call('DELETE', 'companies', { ids })).status).toBe(200);
    const company = await call('POST', 'companies', {
      name: 'Tokyo Traders',
      iec: 'IECJP00001',
      city: 'Tokyo',
      state: 'TK',
      country_id: country.body.data.id,
    });
    expect(
      (await call('DELETE', `countries/${country.body.data.id}`, undefined, { ...admin, 'if-match': '"1"' })).status,
    ).toBe(409);
    expect((await call('POST', `companies/${company.body.data.id}/verify`)).body.data.verified_at).toBeTruthy();
  });

  it.skipIf(skip)("passwords of users are hashed, never returned, and a new one ends the user's sessions", async () => {
    const created = await call('POST', 'users', {
      first_name: 'Ravi',
      last_name: 'Rao',
      email: 'Ravi@Example.com',
      mobile: '9876543212',
      role_id: 4,
      password: 'Ravi@12345',
      confirm_password: 'Ravi@12345',
    });
    expect(created.status).toBe(201);
    expect(created.body.data).not.toHaveProperty('password');
    expect(created.body.data).not.toHaveProperty('password_hash');
    expect(created.body.data.email).toBe('ravi@example.com');
    await verifyByEmailedLink(server, 'ravi@example.com');
    const login = await server.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { email: 'ravi@example.com', password: 'Ravi@12345' },
    });
    const { access } = login.json().data as { access: string };
    const {
      confirm_password: _c,
      password: _p,
      ...rest
    } = {
      first_name: 'Ravi',
      last_name: 'Rao',
      email: 'ravi@example.com',
      mobile: '9876543212',
      role_id: 4,
      password: '',
      confirm_password: '',
    };
    // Verifying the address moved the record's version on (2).
    const verified = (await call('GET', `users/${created.body.data.id}`)).body.data.version as number;
    expect(
      (await call('PUT', `users/${created.body.data.id}`, rest, { ...admin, 'if-match': `"${verified}"` })).status,
    ).toBe(200);
    expect((await call('GET', 'user/profile', undefined, { authorization: `Bearer ${access}` })).status).toBe(200);
    expect(
      (
        await call(
          'PUT',
          `users/${created.body.data.id}`,
          { ...rest, password: 'Ravi@99999', confirm_password: 'Ravi@99999' },
          { ...admin, 'if-match': `"${verified + 1}"` },
        )
      ).status,
    ).toBe(200);
    expect((await call('GET', 'user/profile', undefined, { authorization: `Bearer ${access}` })).status).toBe(401);
  });

  it.skipIf(skip)(
    'executive_access: a sales executive sees and changes only the subscribers assigned to them',
    async () => {
      const sales = await server.auth('Sales Executive');
      const country = await call('POST', 'countries', {
        ...COUNTRY,
        iso2: 'BD',
        iso3: 'BGD',
        name: 'Bangladesh',
        currency_code: 'BDT',
      });
      const salesUser = server.userIds.get('sales@example.com');
      const profile = await call('POST', 'executives', {
        user_id: salesUser,
        employee_code: 'EXE-1',
        region: 'west',
        mobile: '9876543213',
      });
      expect(profile.status).toBe(201);
      const subscriber = (name: string, email: string, executive?: number) => ({
        name,
        email,
        mobile: '9876543214',
        country_id: country.body.data.id,
        ...(executive ? { executive_id: executive } : {}),
      });
      const mine = await call(
        'POST',
        'subscribers',
        subscriber('Mine Subscriber', 'mine@example.com', profile.body.data.id),
      );
      const theirs = await call('POST', 'subscribers', subscriber('Other Subscriber', 'other@example.com'));
      expect(theirs.status).toBe(201);
      const listed = await call('GET', 'subscribers', undefined, sales);
      expect((listed.body.data as unknown as Array<{ id: number }>).map((row) => row.id)).toEqual([mine.body.data.id]);
      expect((await call('GET', `subscribers/${theirs.body.data.id}`, undefined, sales)).status).toBe(404);
      expect(
        (
          await call('PUT', `subscribers/${theirs.body.data.id}`, subscriber('Taken', 'other@example.com'), {
            ...sales,
            'if-match': '"1"',
          })
        ).status,
      ).toBe(404);
      const added = await call('POST', 'subscribers', subscriber('Added By Sales', 'added@example.com'), {
        ...sales,
        'app-source': 'ADMIN',
      });
      expect(added.status).toBe(201);
      expect(added.body.data.executive_id).toBe(profile.body.data.id);
      expect(
        (await call('POST', 'subscribers', subscriber('Elsewhere', 'elsewhere@example.com', 999), sales)).status,
      ).toBeGreaterThanOrEqual(400);
      expect((await call('GET', 'subscribers', undefined, admin)).body.meta?.total).toBe(3);
      const assigned = await call('GET', `executives/${profile.body.data.id}/subscribers`);
      expect(assigned.body.meta?.total).toBe(2);
      // Every read that returns subscribers keeps to the assignment: pickers (with and without a search) and exports.
      const optionIds = async (query: string, headers: Record<string, string>) =>
        (
          (await call('GET', `subscribers/options${query}`, undefined, headers)).body.data as unknown as Array<{
            value: number;
          }>
        )
          .map((option) => option.value)
          .sort();
      const ownIds = [mine.body.data.id, added.body.data.id].sort();
      expect(await optionIds('', sales)).toEqual(ownIds);
      expect(await optionIds('?q=subscriber', sales)).toEqual([mine.body.data.id]);
      expect(await optionIds('?q=other', sales)).toEqual([]);
      expect(await optionIds('?q=other', admin)).toEqual([theirs.body.data.id]);
      expect(await optionIds(`?id=${theirs.body.data.id}`, sales)).toEqual([]);
      expect(await optionIds(`?id=${mine.body.data.id}`, sales)).toEqual([mine.body.data.id]);
      const exported = await server.app.inject({ method: 'GET', url: '/api/v1/subscribers/export', headers: sales });
      expect(exported.statusCode).toBe(200);
      expect(exported.body).toContain('Mine Subscriber');
      expect(exported.body).not.toContain('Other Subscriber');
    },
  );

  it.skipIf(skip)(
    'business rules of the manifest: a percent voucher is at most 100, on create and update',
    async () => {
      const voucher = {
        code: 'PCT2026',
        discount_type: 'percent',
        discount_value: 101,
        valid_from: '2026-01-01',
        valid_to: '2026-12-31',
      };
      const tooMuch = await call('POST', 'vouchers', voucher);
      expect(tooMuch.status).toBe(400);
      expect(tooMuch.body).toEqual({
        message: 'Discount value: Max value is 100 when Discount type is percent.',
        errors: { discount_value: 'Max value is 100 when Discount type is percent.' },
      });
      const percent = await call('POST', 'vouchers', { ...voucher, discount_value: 100 });
      expect(percent.status).toBe(201);
      expect(
        (await call('POST', 'vouchers', { ...voucher, code: 'FLAT2026', discount_type: 'flat', discount_value: 500 }))
          .status,
      ).toBe(201);
      const raised = await call(
        'PUT',
        `vouchers/${percent.body.data.id}`,
        { ...voucher, discount_value: 150 },
        { ...admin, 'if-match': '*' },
      );
      expect(raised.body.errors).toEqual({ discount_value: 'Max value is 100 when Discount type is percent.' });
      expect((await call('GET', `vouchers/${percent.body.data.id}`)).body.data.discount_value).toBe(100);
    },
  );
});
