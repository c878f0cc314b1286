import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTITY_RESOURCES } from '../../registry.ts';
import { spellings } from '../../testing/pathSpellings.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';

type Row = Record<string, unknown> & { id: number; version: number };
type Answer = { status: number; body: { data?: Row; errors?: Record<string, string>; message?: string } };

const BASE = '/api/v1';
const MERGE_PATCH = 'application/merge-patch+json';

describe.each(await testDatabases())('GET → PUT round trips and merge patches ($kind)', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind, {}, { demoSubscribers: 30 });
    admin = await server.auth('Super Admin');
  }, 120_000);
  afterAll(async () => server?.close());

  const call = async (
    method: 'GET' | 'PUT' | 'PATCH' | 'POST',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = admin,
  ): Promise<Answer> => {
    const response = await server.app.inject({
      method,
      url: `${BASE}/${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: response.statusCode, body: response.json() as Answer['body'] };
  };
  const ifMatch = (record: Row, headers = admin) => ({ ...headers, 'if-match': `"${record.version}"` });
  const patchHeaders = (record: Row, headers = admin) => ({ ...ifMatch(record, headers), 'content-type': MERGE_PATCH });
  const newVoucher = async (code: string) => {
    const created = await call('POST', 'vouchers', {
      code,
      description: 'Launch offer',
      discount_type: 'percent',
      discount_value: 10,
      max_discount: 500,
      valid_from: '2026-01-01',
      valid_to: '2026-12-31',
      usage_limit: 100,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data!;
  };

  it.skipIf(skip)(
    'every resource takes back a record exactly as GET answered it, and PUT of it changes none of its fields',
    async () => {
      let sentBack = 0;
      for (const resource of ENTITY_RESOURCES) {
        if (!resource.actions.includes('view') || !resource.actions.includes('edit')) continue;
        const first = (await call('GET', `${resource.api}?_page_size=1`)).body.data as unknown as Row[] | undefined;
        if (!first?.[0]) continue;
        const read = await call('GET', `${resource.api}/${first[0].id}`);
        const record = read.body.data!;
        const put = await call('PUT', `${resource.api}/${record.id}`, record, ifMatch(record));
        expect(put.status, `PUT ${resource.api}/${record.id}: ${JSON.stringify(put.body)}`).toBe(200);
        const { version: _before, updated_at: _beforeAt, ...unchanged } = record;
        expect(put.body.data, resource.api).toMatchObject(unchanged);
        sentBack += 1;
      }
      expect(sentBack).toBeGreaterThanOrEqual(10);
    },
    120_000,
  );

  it.skipIf(skip)(
    'PUT refuses, by name, a field it cannot change sent with another value, and takes null as empty',
    async () => {
      const voucher = await newVoucher('ROUNDTRIP1');
      const changedCount = await call(
        'PUT',
        `vouchers/${voucher.id}`,
        { ...voucher, used_count: 99, id: voucher.id + 1 },
        ifMatch(voucher),
      );
      expect(changedCount.status).toBe(400);
      expect(changedCount.body.errors).toEqual({
        used_count: 'This field cannot be changed.',
        id: 'This field cannot be changed.',
      });
      const emptied = await call('PUT', `vouchers/${voucher.id}`, { ...voucher, max_discount: null }, ifMatch(voucher));
      expect(emptied.status, JSON.stringify(emptied.body)).toBe(200);
      expect(emptied.body.data).toMatchObject({
        max_discount: null,
        code: 'ROUNDTRIP1',
        used_count: voucher.used_count,
      });
      const unknown = await call(
        'PUT',
        `vouchers/${voucher.id}`,
        { ...emptied.body.data, colour: 'red' },
        ifMatch(emptied.body.data!),
      );
      expect(unknown.status).toBe(400);
      expect(Object.keys(unknown.body.errors ?? {})).toEqual(['colour']);
      // A required field cannot be emptied.
      const required = await call(
        'PUT',
        `vouchers/${voucher.id}`,
        { ...emptied.body.data, code: null },
        ifMatch(emptied.body.data!),
      );
      expect(required.status).toBe(400);
      expect(Object.keys(required.body.errors ?? {})).toEqual(['code']);
    },
  );

  it.skipIf(skip)(
    'PATCH sets the fields it names, empties those set to null, and leaves the rest; the audit entry has the change',
    async () => {
      const voucher = await newVoucher('PATCH1');
      const set = await call('PATCH', `vouchers/${voucher.id}`, { description: 'Spring offer' }, patchHeaders(voucher));
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect(set.body.data).toMatchObject({ description: 'Spring offer', max_discount: 500, usage_limit: 100 });
      expect(set.body.data!.version).toBe(voucher.version + 1);
      const cleared = await call(
        'PATCH',
        `vouchers/${voucher.id}`,
        { max_discount: null },
        patchHeaders(set.body.data!),
      );
      expect(cleared.status).toBe(200);
      expect(cleared.body.data).toMatchObject({ description: 'Spring offer', max_discount: null, usage_limit: 100 });
      // application/json is read as the same patch; read-only fields sent unchanged are ignored.
      const asJson = await call(
        'PATCH',
        `vouchers/${voucher.id}`,
        { usage_limit: 5, used_count: voucher.used_count, id: voucher.id },
        ifMatch(cleared.body.data!),
      );
      expect(asJson.status).toBe(200);
      expect(asJson.body.data).toMatchObject({ usage_limit: 5, max_discount: null });
      const [entry] = await server.db.query<{ changes: Record<string, unknown> }>(
        `SELECT changes FROM audit_log WHERE module = 'VOUCHER' AND record_id = $1 AND action = 'update' ORDER BY id DESC LIMIT 1`,
        [voucher.id],
      );
      expect(entry!.changes).toEqual({ usage_limit: { before: 100, after: 5 } });
    },
  );

  it.skipIf(skip)(
    'PATCH judges the record it makes: a wrong value, a nested object, an emptied required field, a read-only change',
    async () => {
      const voucher = await newVoucher('PATCH2');
      const headers = patchHeaders(voucher);
      const refusals: Array<[unknown, string]> = [
        [{ discount_value: 'ten' }, 'discount_value'],
        [{ code: { nested: 'value' } }, 'code'],
        [{ code: null }, 'code'],
        [{ used_count: 3 }, 'used_count'],
        [{ colour: 'red' }, 'colour'],
      ];
      for (const [patch, field] of refusals) {
        const refused = await call('PATCH', `vouchers/${voucher.id}`, patch, headers);
        expect(refused.status, JSON.stringify(patch)).toBe(400);
        expect(Object.keys(refused.body.errors ?? {}), JSON.stringify(patch)).toEqual([field]);
      }
      for (const notAnObject of [[{ code: 'X' }], 'code']) {
        const refused = await call('PATCH', `vouchers/${voucher.id}`, JSON.stringify(notAnObject), headers);
        expect(refused.status).toBe(400);
      }
      // Nothing of the refused patches was written.
      expect((await call('GET', `vouchers/${voucher.id}`)).body.data).toMatchObject({ version: voucher.version });
    },
  );

  it.skipIf(skip)('PATCH needs If-Match (428) at the version read (412), as PUT does', async () => {
    const voucher = await newVoucher('PATCH3');
    const { 'if-match': _ignored, ...withoutIfMatch } = patchHeaders(voucher);
    expect((await call('PATCH', `vouchers/${voucher.id}`, { usage_limit: 7 }, withoutIfMatch)).status).toBe(428);
    const changed = await call('PATCH', `vouchers/${voucher.id}`, { usage_limit: 8 }, patchHeaders(voucher));
    expect(changed.status).toBe(200);
    const stale = await call('PATCH', `vouchers/${voucher.id}`, { usage_limit: 9 }, patchHeaders(voucher));
    expect(stale.status).toBe(412);
    expect((await call('GET', `vouchers/${voucher.id}`)).body.data).toMatchObject({ usage_limit: 8 });
  });

  it.skipIf(skip)(
    'PATCH is refused without a token, without edit permission, on a record outside the scope, and under odd spellings',
    async () => {
      const voucher = await newVoucher('PATCH4');
      const noToken = { 'if-match': `"${voucher.version}"`, 'content-type': MERGE_PATCH };
      expect((await call('PATCH', `vouchers/${voucher.id}`, { usage_limit: 1 }, noToken)).status).toBe(401);
      const viewer = await server.auth('Read Only');
      expect(
        (await call('PATCH', `vouchers/${voucher.id}`, { usage_limit: 1 }, patchHeaders(voucher, viewer))).status,
      ).toBe(403);
      // A sales executive patches only the subscribers assigned to them: another's is not found, and stays as it was.
      const sales = await server.auth('Sales Executive');
      const subscribers = await server.db.query<Row>(
        'SELECT id::int AS id, version::int AS version FROM subscribers ORDER BY id LIMIT 20',
      );
      let outside: Row | undefined;
      for (const subscriber of subscribers)
        if ((await call('GET', `subscribers/${subscriber.id}`, undefined, sales)).status === 404) {
          outside = subscriber;
          break;
        }
      const refused = await call(
        'PATCH',
        `subscribers/${outside!.id}`,
        { name: 'Not theirs' },
        patchHeaders(outside!, sales),
      );
      expect(refused.status).toBe(404);
      expect((await call('GET', `subscribers/${outside!.id}`)).body.data).toMatchObject({ version: outside!.version });
      for (const spelling of spellings(`${BASE}/vouchers/${voucher.id}`)) {
        const response = await server.app.inject({
          method: 'PATCH',
          url: spelling,
          headers: noToken,
          payload: { usage_limit: 1 },
        });
        expect([401, 404], spelling).toContain(response.statusCode);
      }
      expect((await call('GET', `vouchers/${voucher.id}`)).body.data).toMatchObject({ usage_limit: 100 });
    },
  );
});
