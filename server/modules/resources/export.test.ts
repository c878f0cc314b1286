import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';

const databases = await testDatabases();

/**
 * An export is for people: an enum column holds the manifest's label with the code in the column after it (for tools
 * that match codes), and the record version, which only changes go by, is no column of a list or an export.
 */
describe.each(databases)('CSV exports on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  const get = async (url: string) => {
    const response = await server.app.inject({ method: 'GET', url: `/api/v1/${url}`, headers: admin });
    return { status: response.statusCode, lines: response.body.trim().split('\r\n'), body: response.body };
  };
  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    admin = await server.auth('Super Admin');
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/v1/countries',
      headers: admin,
      payload: { name: 'Atlantis', iso2: 'AQ', iso3: 'ATL', region: 'oceania', currency_code: 'ATL' },
    });
    expect(created.statusCode).toBe(201);
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)('an enum column is written as its label, its code beside it', async () => {
    const exported = await get('countries/export?q=Atlantis');
    expect(exported.status).toBe(200);
    expect(exported.lines).toEqual([
      'Name,ISO alpha-2,ISO alpha-3,Region,Region code,Currency code,Active',
      'Atlantis,AQ,ATL,Oceania,oceania,ATL,true',
    ]);
    const chosen = await get('countries/export?q=Atlantis&_columns=name,region');
    expect(chosen.lines).toEqual(['Name,Region,Region code', 'Atlantis,Oceania,oceania']);
  });

  it.skipIf(skip)(
    'the record version is no export column and no sort, while each record still carries it for If-Match',
    async () => {
      expect((await get('countries/export?_columns=name,version')).status).toBe(400);
      expect((await get('countries?_sort=version')).status).toBe(400);
      const listed = JSON.parse((await get('countries?q=Atlantis')).body) as { data: { version: number }[] };
      expect(listed.data[0]!.version).toBe(1);
    },
  );
});

/**
 * A cell written by anyone with the right to edit a record reaches whoever opens the export in a spreadsheet: it must
 * show there as the text it is (docs/api.md, "CSV files").
 */
describe.each(databases)('an export opened in a spreadsheet runs nothing, on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    admin = await server.auth('Super Admin');
    const vouchers = [
      { code: 'CELLS1', description: 'x;=1+1;', discount_value: 12.5 },
      { code: 'CELLS2', description: '=HYPERLINK("http://evil.example","Click")', discount_value: 40 },
    ];
    for (const voucher of vouchers) {
      const created = await server.app.inject({
        method: 'POST',
        url: '/api/v1/vouchers',
        headers: admin,
        payload: { ...voucher, discount_type: 'flat', valid_from: '2026-01-01', valid_to: '2026-12-31' },
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    // A negative amount no form allows, as data from elsewhere may hold it.
    await server.db.query("UPDATE vouchers SET discount_value = -12.5 WHERE code = 'CELLS2'");
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)('a separator quoted, a formula quoted and neutralised, a number left a number', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/v1/vouchers/export?q=CELLS&_columns=code,description,discount_value&_sort=code',
      headers: admin,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.body.split('\r\n')).toEqual([
      'Code,Description,Discount value',
      'CELLS1,"x;=1+1;",12.5',
      `CELLS2,"'=HYPERLINK(""http://evil.example"",""Click"")",-12.5`,
      '',
    ]);
  });
});
