import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';

const databases = await testDatabases();

type Voucher = { id: number; version: number; code: string; discount_value: number; is_active: boolean };
type Answer = { data: Voucher; message?: string };

const VOUCHER = {
  code: 'MONSOON',
  discount_type: 'percent',
  discount_value: 10,
  valid_from: '2026-06-01',
  valid_to: '2026-09-30',
};
const STALE = /^This voucher was changed by someone else since you opened it\./;

/**
 * Optimistic concurrency on the generic record endpoints: every record carries a version, GET sends it as the ETag,
 * and a change of one record must name the version it was made on (If-Match), so that no change is silently lost.
 */
describe.each(databases)('record versions, ETag and If-Match on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const response = await server.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { ...admin, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: response.statusCode, body: response.json<Answer>(), etag: response.headers.etag };
  };
  const newVoucher = async (code: string) => (await call('POST', 'vouchers', { ...VOUCHER, code })).body.data;
  const editable = ({ code, discount_value }: Voucher) => ({ ...VOUCHER, code, discount_value });

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    admin = await server.auth('Super Admin');
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)(
    'a record starts at version 1; GET sends it as a strong ETag, also from the response cache, and every write moves it on',
    async () => {
      const created = await call('POST', 'vouchers', { ...VOUCHER, code: 'ETAG1' });
      expect(created.status).toBe(201);
      expect(created.body.data.version).toBe(1);
      expect(created.etag).toBe('"1"');
      const id = created.body.data.id;
      const first = await call('GET', `vouchers/${id}`);
      const cached = await call('GET', `vouchers/${id}`);
      expect([first.etag, cached.etag, cached.body.data.version]).toEqual(['"1"', '"1"', 1]);

      const updated = await call(
        'PUT',
        `vouchers/${id}`,
        { ...VOUCHER, code: 'ETAG1', discount_value: 20 },
        { 'if-match': '"1"' },
      );
      expect(updated.status).toBe(200);
      expect([updated.etag, updated.body.data.version]).toEqual(['"2"', 2]);
      expect((await call('GET', `vouchers/${id}`)).etag).toBe('"2"');

      const deactivated = await call('PATCH', `vouchers/${id}/status`, { is_active: false }, { 'if-match': '"2"' });
      expect([deactivated.status, deactivated.etag, deactivated.body.data.is_active]).toEqual([200, '"3"', false]);
      expect((await call('GET', `vouchers/${id}`)).etag).toBe('"3"');

      // Bulk changes need no If-Match and move each record on; so does a change made straight in SQL.
      expect((await call('PATCH', 'vouchers/status', { ids: [id], is_active: true })).status).toBe(200);
      expect((await call('GET', `vouchers/${id}`)).etag).toBe('"4"');
      await server.db.query('UPDATE vouchers SET discount_value = 30 WHERE id = $1', [id]);
      const afterSql = await call('GET', `vouchers/${id}`);
      expect([afterSql.etag, afterSql.body.data.discount_value]).toEqual(['"5"', 30]);

      const listed = await call('GET', 'vouchers?q=ETAG1');
      expect((listed.body.data as unknown as Voucher[]).map((row) => row.version)).toEqual([5]);
    },
  );

  it.skipIf(skip)(
    'PUT, PATCH status and DELETE of one record without If-Match: 428 naming the header, nothing changed',
    async () => {
      const voucher = await newVoucher('NOMATCH');
      for (const [method, url, payload] of [
        ['PUT', `vouchers/${voucher.id}`, editable({ ...voucher, discount_value: 50 })],
        ['PATCH', `vouchers/${voucher.id}/status`, { is_active: false }],
        ['DELETE', `vouchers/${voucher.id}`, undefined],
      ] as const) {
        const refused = await call(method, url, payload);
        expect(refused.status, `${method} ${url}`).toBe(428);
        expect(refused.body.message).toMatch(/If-Match header/);
      }
      expect((await call('GET', `vouchers/${voucher.id}`)).body.data).toMatchObject({
        version: 1,
        discount_value: 10,
        is_active: true,
      });
    },
  );

  it.skipIf(skip)(
    'a stale, weak or unreadable If-Match is a 412 for PUT, PATCH status and DELETE, and nothing changes',
    async () => {
      const voucher = await newVoucher('STALE');
      const moved = await call('PUT', `vouchers/${voucher.id}`, editable({ ...voucher, discount_value: 15 }), {
        'if-match': '"1"',
      });
      expect(moved.body.data.version).toBe(2);
      for (const ifMatch of ['"1"', 'W/"2"', '2', '"1", "3"']) {
        for (const [method, url, payload] of [
          ['PUT', `vouchers/${voucher.id}`, editable({ ...voucher, discount_value: 99 })],
          ['PATCH', `vouchers/${voucher.id}/status`, { is_active: false }],
          ['DELETE', `vouchers/${voucher.id}`, undefined],
        ] as const) {
          const refused = await call(method, url, payload, { 'if-match': ifMatch });
          expect(refused.status, `${method} ${url} If-Match: ${ifMatch}`).toBe(412);
          expect(refused.body.message).toMatch(STALE);
        }
      }
      expect((await call('GET', `vouchers/${voucher.id}`)).body.data).toMatchObject({
        version: 2,
        discount_value: 15,
        is_active: true,
      });
      // One of several tags, or "*" (any version), matches.
      expect(
        (await call('PATCH', `vouchers/${voucher.id}/status`, { is_active: false }, { 'if-match': '"1", "2"' })).status,
      ).toBe(200);
      expect((await call('DELETE', `vouchers/${voucher.id}`, undefined, { 'if-match': '*' })).status).toBe(200);
      expect((await call('DELETE', `vouchers/${voucher.id}`, undefined, { 'if-match': '*' })).status).toBe(404);
      expect((await call('PUT', `vouchers/${voucher.id}`, editable(voucher), { 'if-match': '"3"' })).status).toBe(404);
    },
  );

  it.skipIf(skip)(
    '20 parallel read-then-PUT cycles: one success per version read, the rest 412, and the final record is the last success',
    async () => {
      const voucher = await newVoucher('RACE');
      const cycles = await Promise.all(
        Array.from({ length: 20 }, async (_, index) => {
          const read = await call('GET', `vouchers/${voucher.id}`);
          const written = await call(
            'PUT',
            `vouchers/${voucher.id}`,
            editable({ ...read.body.data, discount_value: 50 + index }),
            { 'if-match': read.etag! },
          );
          return {
            readVersion: read.body.data.version,
            status: written.status,
            written: written.body.data,
            message: written.body.message,
          };
        }),
      );
      const succeeded = cycles.filter((cycle) => cycle.status === 200);
      const stale = cycles.filter((cycle) => cycle.status === 412);
      expect(succeeded.length).toBeGreaterThanOrEqual(1);
      expect(succeeded.length + stale.length).toBe(20);
      for (const cycle of stale) expect(cycle.message).toMatch(STALE);
      // Each success moved the version on by exactly one from the version it read; no two succeeded on the same one.
      for (const cycle of succeeded) expect(cycle.written.version).toBe(cycle.readVersion + 1);
      expect(new Set(succeeded.map((cycle) => cycle.readVersion)).size).toBe(succeeded.length);
      const final = (await call('GET', `vouchers/${voucher.id}`)).body.data;
      expect(final.version).toBe(1 + succeeded.length);
      const last = succeeded.find((cycle) => cycle.written.version === final.version)!;
      expect(final.discount_value).toBe(last.written.discount_value);
    },
  );

  it.skipIf(skip)(
    '20 parallel increments that retry on 412 lose none: the value and the version each move on by exactly 20',
    async () => {
      const voucher = await newVoucher('COUNTER');
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          for (let attempt = 0; attempt < 200; attempt += 1) {
            const read = await call('GET', `vouchers/${voucher.id}`);
            const next = editable({ ...read.body.data, discount_value: read.body.data.discount_value + 1 });
            const written = await call('PUT', `vouchers/${voucher.id}`, next, { 'if-match': read.etag! });
            if (written.status === 200) return;
            expect(written.status).toBe(412);
          }
          throw new Error('an increment never got through');
        }),
      );
      const final = (await call('GET', `vouchers/${voucher.id}`)).body.data;
      expect({ discount_value: final.discount_value, version: final.version }).toEqual({
        discount_value: 30,
        version: 21,
      });
    },
  );

  it.skipIf(skip)(
    "an executive changing another executive's subscriber gets 404 with a current If-Match, never 412",
    async () => {
      const sales = await server.auth('Sales Executive');
      const country = (
        await call('POST', 'countries', {
          name: 'Nepal',
          iso2: 'NP',
          iso3: 'NPL',
          region: 'asia',
          currency_code: 'NPR',
        })
      ).body.data;
      const subscriber = {
        name: 'Unassigned Co',
        email: 'unassigned@example.com',
        mobile: '9876543219',
        country_id: country.id,
      };
      const theirs = (await call('POST', 'subscribers', subscriber)).body.data;
      expect(
        (
          await call(
            'PUT',
            `subscribers/${theirs.id}`,
            { ...subscriber, name: 'Taken' },
            { ...sales, 'if-match': '"1"' },
          )
        ).status,
      ).toBe(404);
      expect((await call('GET', `subscribers/${theirs.id}`)).body.data).toMatchObject({
        name: 'Unassigned Co',
        version: 1,
      });
    },
  );
});
