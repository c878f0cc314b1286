import writeExcelFile from 'write-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { dropAbandonedImports } from './store.ts';

const databases = await testDatabases();

type Line = {
  progress?: unknown;
  data?: {
    counts: Record<string, number>;
    rows?: Array<{ line: number; outcome: string; errors: Record<string, string>; changed: string[] }>;
  };
  error?: { status: number; message: string; errors?: Record<string, string> };
};

const HEADINGS = ['Code', 'Discount type', 'Discount value', 'Valid from', 'Valid to', 'Usage limit'];
const FILE = [
  HEADINGS.join(','),
  'SAME0001,flat,100,2026-01-01,2026-12-31,10',
  'MOVE0001,Flat amount,100,2026-01-01,2026-12-31,20',
  'NEWW0001,percent,15,2026-01-01,2026-06-30,',
  'bad code,flat,100,2026-01-01,2026-12-31,5',
  'OVER0001,percent,150,2026-01-01,2026-12-31,5',
  'NEWW0001,flat,5,2026-01-01,2026-12-31,',
].join('\r\n');

/** A multipart/form-data body with one file, as a browser's FormData sends it. */
function multipart(
  name: string,
  data: Buffer | string,
  type = 'text/csv',
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----import-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    Buffer.isBuffer(data) ? data : Buffer.from(data),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe.each(databases)('import of vouchers from a file on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  const request = async (method: 'GET' | 'POST', url: string, payload?: object, headers = admin) => {
    const response = await server.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers,
      ...(payload ? { payload } : {}),
    });
    const ndjson = response.headers['content-type']?.toString().startsWith('application/x-ndjson');
    const lines = ndjson
      ? response.body
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Line)
      : [];
    return {
      status: response.statusCode,
      body: response.body,
      lines,
      result: lines.at(-1),
      json: () => response.json(),
    };
  };
  const upload = async (name: string, data: Buffer | string, type?: string, headers = admin, api = 'vouchers') => {
    const body = multipart(name, data, type);
    const response = await server.app.inject({
      method: 'POST',
      url: `/api/v1/${api}/import`,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
    return { status: response.statusCode, json: () => response.json() };
  };
  const voucher = async (code: string) =>
    (
      await server.db.query(
        `SELECT code, discount_type, discount_value, usage_limit, version FROM vouchers WHERE code = $1`,
        [code],
      )
    )[0];

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    admin = await server.auth('Super Admin');
    for (const [code, limit] of [
      ['SAME0001', 10],
      ['MOVE0001', 10],
    ] as const) {
      const created = await request('POST', 'vouchers', {
        code,
        discount_type: 'flat',
        discount_value: 100,
        valid_from: '2026-01-01',
        valid_to: '2026-12-31',
        usage_limit: limit,
      });
      expect(created.status, created.body).toBe(201);
    }
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)(
    'a dry run shows rows to create, update, leave unchanged and refuse, each refusal on its field; applying gives exactly that; again, nothing',
    async () => {
      const uploaded = await upload('vouchers.csv', FILE);
      expect(uploaded.status).toBe(201);
      const { id, mapping, rows } = uploaded.json().data;
      expect(rows).toBe(6);
      expect(mapping).toEqual({
        Code: 'code',
        'Discount type': 'discount_type',
        'Discount value': 'discount_value',
        'Valid from': 'valid_from',
        'Valid to': 'valid_to',
        'Usage limit': 'usage_limit',
      });

      const dry = await request('POST', `vouchers/import/${id}/dry-run`, { mapping });
      expect(dry.status, dry.body).toBe(200);
      expect(dry.result?.data?.counts).toEqual({ create: 1, update: 1, unchanged: 1, error: 3 });
      const byLine = new Map(dry.result!.data!.rows!.map((row) => [row.line, row]));
      expect(byLine.get(2)?.outcome).toBe('unchanged');
      expect(byLine.get(3)).toMatchObject({ outcome: 'update', changed: ['usage_limit'] });
      expect(byLine.get(4)?.outcome).toBe('create');
      expect(byLine.get(5)).toMatchObject({
        outcome: 'error',
        errors: { code: 'Use 4 to 20 capital letters or digits.' },
      });
      expect(byLine.get(6)?.outcome).toBe('error');
      expect(Object.keys(byLine.get(6)!.errors)).toEqual(['discount_value']);
      expect(byLine.get(7)).toMatchObject({ outcome: 'error', errors: { code: 'The same as row 4 of the file.' } });
      expect(await voucher('NEWW0001')).toBeUndefined();

      const applied = await request('POST', `vouchers/import/${id}/apply`, { mapping });
      expect(applied.result?.data?.counts).toEqual({ create: 1, update: 1, unchanged: 1, error: 3 });
      expect(await voucher('NEWW0001')).toMatchObject({
        discount_type: 'percent',
        discount_value: 15,
        usage_limit: null,
      });
      expect(await voucher('MOVE0001')).toMatchObject({ usage_limit: 20, version: 2 });
      expect(await voucher('SAME0001')).toMatchObject({ usage_limit: 10, version: 1 });
      const entries = await server.db.query<{ record_id: number | null }>(
        `SELECT record_id FROM audit_log WHERE module = 'VOUCHER' AND action = 'import' ORDER BY id`,
      );
      expect(entries.map((entry) => entry.record_id === null)).toEqual([false, false, true]);

      const again = await upload('vouchers.csv', FILE);
      const second = await request('POST', `vouchers/import/${again.json().data.id}/apply`, { mapping });
      expect(second.result?.data?.counts).toEqual({ create: 0, update: 0, unchanged: 3, error: 3 });
      expect(await voucher('MOVE0001')).toMatchObject({ version: 2 });

      const rejected = await request('GET', `vouchers/import/${again.json().data.id}/rejected`);
      expect(rejected.status).toBe(200);
      const lines = rejected.body.trim().split('\r\n');
      expect(lines[0]).toBe([...HEADINGS, 'Reason'].join(','));
      expect(lines).toHaveLength(4);
      expect(lines[1]).toContain('Code: Use 4 to 20 capital letters or digits.');
    },
  );

  it.skipIf(skip)('a code in small letters is imported in capitals, as a form or the API would store it', async () => {
    const uploaded = await upload(
      'lower.csv',
      [HEADINGS.join(','), 'lowr0001,flat,10,2026-01-01,2026-12-31,1'].join('\n'),
    );
    const { id, mapping } = uploaded.json().data;
    const applied = await request('POST', `vouchers/import/${id}/apply`, { mapping });
    expect(applied.result?.data?.counts).toEqual({ create: 1, update: 0, unchanged: 0, error: 0 });
    expect(await voucher('LOWR0001')).toMatchObject({ discount_value: 10 });
  });

  it.skipIf(skip)('an XLSX file is read as a CSV would be', async () => {
    const sheet = [
      HEADINGS.map((value) => ({ value })),
      ['XLSX0001', 'flat', 50, '2026-02-01', '2026-03-01', 3].map((value) => ({ value })),
    ];
    const data = await writeExcelFile(sheet as never).toBuffer();
    const uploaded = await upload(
      'vouchers.xlsx',
      data,
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(uploaded.status).toBe(201);
    const { id, mapping, headings } = uploaded.json().data;
    expect(headings).toEqual(HEADINGS);
    const applied = await request('POST', `vouchers/import/${id}/apply`, { mapping });
    expect(applied.result?.data?.counts).toEqual({ create: 1, update: 0, unchanged: 0, error: 0 });
    expect(await voucher('XLSX0001')).toMatchObject({ discount_value: 50, usage_limit: 3 });
  });

  it.skipIf(skip)('a failure in the third batch rolls the whole apply back', async () => {
    const rows = Array.from(
      { length: 2500 },
      (_, index) => `ROLL${String(index).padStart(4, '0')},flat,10,2026-01-01,2026-12-31,1`,
    );
    const uploaded = await upload('many.csv', [HEADINGS.join(','), ...rows].join('\n'));
    const { id, mapping } = uploaded.json().data;
    const before = await server.db.query(`SELECT count(*) AS count FROM vouchers`);
    // The database refuses the 2,401st row when it is written, after two batches went in.
    await server.db.exec(`
      CREATE FUNCTION refuse_roll2400() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.code = 'ROLL2400' THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER refuse_roll2400 BEFORE INSERT ON vouchers FOR EACH ROW EXECUTE FUNCTION refuse_roll2400();`);
    try {
      const applied = await request('POST', `vouchers/import/${id}/apply`, { mapping });
      expect(applied.status).toBe(200);
      expect(applied.lines.some((line) => line.progress !== undefined)).toBe(true);
      expect(applied.result?.error?.status).toBe(500);
    } finally {
      await server.db.exec('DROP TRIGGER refuse_roll2400 ON vouchers; DROP FUNCTION refuse_roll2400();');
    }
    expect(await server.db.query(`SELECT count(*) AS count FROM vouchers`)).toEqual(before);
    expect(
      (
        await server.db.query(
          `SELECT count(*) AS count FROM audit_log WHERE action = 'import' AND details->>'file_name' = 'many.csv'`,
        )
      )[0],
    ).toEqual({ count: 0 });
  });

  it.skipIf(skip)(
    "the mapping must name headings and fields and map the key; another user's file is a 404; the permission is import",
    async () => {
      const uploaded = await upload('vouchers.csv', FILE);
      const { id } = uploaded.json().data;
      const noKey = await request('POST', `vouchers/import/${id}/dry-run`, {
        mapping: { Code: null, 'Usage limit': 'usage_limit' },
      });
      expect(noKey.status).toBe(400);
      expect(noKey.json().errors.mapping).toContain('Code');
      expect((await request('POST', `vouchers/import/${id}/dry-run`, { mapping: { Nope: 'code' } })).status).toBe(400);
      expect((await request('POST', `vouchers/import/${id}/dry-run`, { mapping: { Code: 'used_count' } })).status).toBe(
        400,
      );
      const viewer = await server.auth('Read Only');
      expect((await upload('vouchers.csv', FILE, 'text/csv', viewer)).status).toBe(403);
      expect(
        (await request('POST', `vouchers/import/${id}/dry-run`, { mapping: { Code: 'code' } }, viewer)).status,
      ).toBe(403);
      expect((await request('GET', 'vouchers/import/template', undefined, viewer)).status).toBe(403);
      expect((await server.app.inject({ method: 'GET', url: '/api/v1/vouchers/import/template' })).statusCode).toBe(
        401,
      );
      const [other] = await server.db.query<{ id: number }>(
        `INSERT INTO imports (module, user_id, file_name, headings, rows, row_count) VALUES ('VOUCHER', $1, 'x.csv', '["Code"]', '[["ABCD1234"]]', 1) RETURNING id`,
        [server.userIds.get('viewer@example.com')],
      );
      expect(
        (await request('POST', `vouchers/import/${other!.id}/dry-run`, { mapping: { Code: 'code' } })).status,
      ).toBe(404);
      const template = await request('GET', 'vouchers/import/template');
      expect(template.body.split('\r\n')[0]).toBe(
        'Code,Description,Discount type,Discount value,Max discount (INR),Valid from,Valid to,Usage limit,Plan',
      );
      for (const url of [
        '/api/v1/vouchers/%69mport/template',
        '//api/v1/vouchers/import/template',
        '/api/v1/VOUCHERS/import/template',
      ]) {
        expect([401, 404], url).toContain((await server.app.inject({ method: 'GET', url })).statusCode);
      }
    },
  );
  it.skipIf(skip)(
    'a file left without its apply for a day is dropped, a newer one stays; the dropped one is a 404',
    async () => {
      const left = (await upload('left.csv', FILE)).json().data.id as number;
      await server.db.query(`UPDATE imports SET created_at = now() - interval '25 hours' WHERE id = $1`, [left]);
      const [fresh] = await server.db.query<{ id: number }>(
        `INSERT INTO imports (module, user_id, file_name, headings, rows, row_count) VALUES ('VOUCHER', $1, 'fresh.csv', '["Code"]', '[["ABCD1234"]]', 1) RETURNING id`,
        [server.userIds.get('viewer@example.com')],
      );
      expect(await dropAbandonedImports(server.db)).toBe(1);
      expect(
        (await server.db.query('SELECT id FROM imports WHERE id = ANY($1::bigint[])', [[left, fresh!.id]])).map((row) =>
          Number(row.id),
        ),
      ).toEqual([fresh!.id]);
      expect((await request('POST', `vouchers/import/${left}/dry-run`, { mapping: { Code: 'code' } })).status).toBe(
        404,
      );
    },
  );
  it.skipIf(skip)(
    'a related record is named by its label, digits included ("10" is chapter 10), else by its id; neither is refused in the dry run',
    async () => {
      const chapter = async (code: string, description: string) =>
        (await request('POST', 'hs-chapters', { code, description, section: '2' })).json().data.id as number;
      const cereals = await chapter('10', 'Cereals');
      const animals = await chapter('01', 'Live animals');
      const file = [
        'HS code,Description,Chapter',
        '1006,Rice,10',
        `0101,Horses,${animals}`,
        '0102,Bovine animals,999999',
      ].join('\r\n');
      const uploaded = await upload('hs.csv', file, 'text/csv', admin, 'hs-codes');
      expect(uploaded.status).toBe(201);
      const { id, mapping } = uploaded.json().data;
      const dry = await request('POST', `hs-codes/import/${id}/dry-run`, { mapping });
      expect(dry.result?.data?.counts).toEqual({ create: 2, update: 0, unchanged: 0, error: 1 });
      expect(dry.result!.data!.rows!.find((row) => row.line === 4)).toMatchObject({
        outcome: 'error',
        errors: { chapter_id: 'No Chapter is named "999999".' },
      });
      const applied = await request('POST', `hs-codes/import/${id}/apply`, { mapping });
      expect(applied.result?.data?.counts).toEqual({ create: 2, update: 0, unchanged: 0, error: 1 });
      const created = await server.db.query<{ hs_code: string; chapter_id: number }>(
        `SELECT hs_code, chapter_id FROM hs_codes WHERE hs_code IN ('1006', '0101') ORDER BY hs_code`,
      );
      expect(created.map((row) => [row.hs_code, Number(row.chapter_id)])).toEqual([
        ['0101', animals],
        ['1006', cereals],
      ]);
    },
  );
});
