import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';

const databases = await testDatabases();
type Page = {
  data: Array<Record<string, unknown> & { id: number }>;
  meta: { total: number };
  errors?: Record<string, string>;
};

describe.each(databases)('list filters on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown, headers = admin) => {
    const response = await server.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return {
      status: response.statusCode,
      body: (response.body.startsWith('{') ? response.json() : {}) as Page,
      text: response.body,
    };
  };
  const codes = async (query: string, headers = admin) => {
    const answer = await call('GET', `vouchers?_page_size=100&_sort=code&${query}`, undefined, headers);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data.map((row) => row.code);
  };
  const plans: number[] = [];

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    admin = await server.auth('Super Admin');
    for (const code of ['PA', 'PB', 'PC']) {
      const plan = await call('POST', 'plans', {
        name: `Plan ${code}`,
        code,
        price: 100,
        validity_days: 30,
        points: 10,
        max_users: 1,
      });
      plans.push((plan.body.data as unknown as { id: number }).id);
    }
    const vouchers = [
      {
        code: 'VCH1',
        discount_type: 'percent',
        discount_value: 5,
        valid_from: '2026-01-01',
        valid_to: '2026-01-31',
        plan_id: plans[0],
      },
      {
        code: 'VCH2',
        discount_type: 'flat',
        discount_value: 50,
        valid_from: '2026-02-01',
        valid_to: '2026-02-28',
        plan_id: plans[1],
      },
      {
        code: 'VCH3',
        discount_type: 'percent',
        discount_value: 10,
        valid_from: '2026-03-01',
        valid_to: '2026-03-31',
        plan_id: plans[2],
      },
      { code: 'VCH4', discount_type: 'flat', discount_value: 20, valid_from: '2026-01-15', valid_to: '2026-02-15' },
    ];
    for (const voucher of vouchers) {
      const created = await call('POST', 'vouchers', voucher);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)('several values of an enum or a relation, comma-separated', async () => {
    expect(await codes('discount_type=percent')).toEqual(['VCH1', 'VCH3']);
    expect(await codes('discount_type=percent,flat')).toEqual(['VCH1', 'VCH2', 'VCH3', 'VCH4']);
    expect(await codes(`plan_id=${plans[0]},${plans[2]}`)).toEqual(['VCH1', 'VCH3']);
    expect(await codes(`plan_id=${plans[1]}&discount_type=percent`)).toEqual([]);
  });

  it.skipIf(skip)('is empty and is not empty, for a field that may be left empty', async () => {
    expect(await codes('plan_id_empty=true')).toEqual(['VCH4']);
    expect(await codes('plan_id_empty=false')).toEqual(['VCH1', 'VCH2', 'VCH3']);
    // A required field has no "is empty".
    expect((await call('GET', 'vouchers?discount_type_empty=true')).status).toBe(400);
  });

  it.skipIf(skip)('a date range, both ends inclusive', async () => {
    expect(await codes('valid_to_from=2026-02-01&valid_to_to=2026-02-28')).toEqual(['VCH2', 'VCH4']);
    expect(await codes('valid_to_to=2026-01-31')).toEqual(['VCH1']);
    expect(await codes('valid_to_from=2026-02-16&discount_type=flat,percent&plan_id_empty=false')).toEqual([
      'VCH2',
      'VCH3',
    ]);
  });

  it.skipIf(skip)('a date-time range takes days: the last day counts whole', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const answer = await call('GET', `subscriber-activity?last_login_at_from=2000-01-01&last_login_at_to=${today}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  });

  it.skipIf(skip)('bad values: a 400 naming the filter', async () => {
    const cases: Array<[string, string]> = [
      ['discount_type=percent,bogus', 'discount_type'],
      ['discount_type=percent,', 'discount_type'],
      ['plan_id=1,x', 'plan_id'],
      ['plan_id=0', 'plan_id'],
      ['plan_id_empty=maybe', 'plan_id_empty'],
      ['valid_to_from=tomorrow', 'valid_to_from'],
    ];
    for (const [query, field] of cases) {
      const answer = await call('GET', `vouchers?${query}`);
      expect(answer.status, query).toBe(400);
      expect(Object.keys(answer.body.errors ?? {}), query).toEqual([field]);
    }
  });

  it.skipIf(skip)('the export follows the filters', async () => {
    const exported = await server.app.inject({
      method: 'GET',
      url: '/api/v1/vouchers/export?discount_type=flat&plan_id_empty=false&_columns=code',
      headers: admin,
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.body.trim().split(/\r?\n/)).toEqual(['Code', 'VCH2']);
  });

  it.skipIf(skip)('filters keep to the executive scope', async () => {
    const sales = await server.auth('Sales Executive');
    const country = await call('POST', 'countries', {
      name: 'Nepal',
      iso2: 'NP',
      iso3: 'NPL',
      region: 'asia',
      currency_code: 'NPR',
    });
    const countryId = (country.body.data as unknown as { id: number }).id;
    const profile = await call('POST', 'executives', {
      user_id: server.userIds.get('sales@example.com'),
      employee_code: 'EXE-9',
      region: 'west',
      mobile: '9876543213',
    });
    const executive = (profile.body.data as unknown as { id: number }).id;
    const bhutan = await call('POST', 'countries', {
      name: 'Bhutan',
      iso2: 'BT',
      iso3: 'BTN',
      region: 'asia',
      currency_code: 'BTN',
    });
    const otherCountryId = (bhutan.body.data as unknown as { id: number }).id;
    const subscriber = (name: string, country: number, executiveId?: number) => ({
      name,
      email: `${name.toLowerCase()}@example.com`,
      mobile: '9876543214',
      country_id: country,
      ...(executiveId ? { executive_id: executiveId } : {}),
    });
    await call('POST', 'subscribers', subscriber('Mine', countryId, executive));
    await call('POST', 'subscribers', subscriber('Theirs', countryId));
    await call('POST', 'subscribers', subscriber('Bhutanese', otherCountryId, executive));
    const names = async (query: string, headers: Record<string, string>) =>
      (await call('GET', `subscribers?_sort=name&${query}`, undefined, headers)).body.data.map((row) => row.name);
    expect(await names(`country_id=${countryId},${otherCountryId}`, sales)).toEqual(['Bhutanese', 'Mine']);
    expect(await names(`country_id=${countryId},${otherCountryId}`, admin)).toEqual(['Bhutanese', 'Mine', 'Theirs']);
    expect(await names('status=none,expired', sales)).toEqual(['Bhutanese', 'Mine']);
    expect(await names('executive_id_empty=true', sales)).toEqual([]);
    expect(await names('executive_id_empty=true', admin)).toEqual(['Theirs']);
  });
});
