import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';

const databases = await testDatabases();

type Line = {
  progress?: { done: number; total: number };
  data?: { matched: number; changed: number };
  message?: string;
  error?: { status: number; message: string };
};

/** The lines of a streamed answer; the last one is the result (or the error). */
function linesOf(body: string): Line[] {
  return body
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Line);
}

describe.each(databases)('bulk changes of all matching records on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let executive: Record<string, string>;
  const post = async (url: string, payload: object, headers = admin) => {
    const response = await server.app.inject({ method: 'POST', url: `/api/v1/${url}`, headers, payload });
    return {
      status: response.statusCode,
      text: response.body,
      lines: response.headers['content-type']?.toString().startsWith('application/x-ndjson')
        ? linesOf(response.body)
        : [],
      json: () => response.json(),
    };
  };
  const total = async (url: string, headers = admin) =>
    (await server.app.inject({ method: 'GET', url: `/api/v1/${url}`, headers })).json().meta.total as number;

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind, {}, { demoSubscribers: 10_000 });
    admin = await server.auth('Super Admin');
    executive = await server.auth('Sales Executive');
  }, 120_000);
  afterAll(async () => server?.close());

  it.skipIf(skip)(
    'an executive sets a field on the 10,000-record filter: exactly their matching subscribers change, nothing outside their scope',
    async () => {
      const [country] = await server.db.query<{ id: number }>(`SELECT id FROM countries ORDER BY id DESC LIMIT 1`);
      const outsideBefore = await server.db.query(
        `SELECT id, country_id, version FROM subscribers WHERE status = 'trial' AND id % 5 <> 1 ORDER BY id`,
      );
      const matching = await total('subscribers?status=trial', executive);
      const everyone = await total('subscribers?status=trial');
      expect(everyone).toBeGreaterThan(matching);
      expect(matching).toBeGreaterThan(100);

      const answer = await post(
        'subscribers/bulk/set?status=trial',
        { field: 'country_id', value: country!.id, expected_count: matching },
        executive,
      );
      expect(answer.status, answer.text).toBe(200);
      const result = answer.lines.at(-1)!;
      expect(result.data?.matched).toBe(matching);
      expect(answer.lines[0]?.progress).toEqual({ done: 0, total: matching });

      const scoped = await server.db.query<{ country_id: number; count: number }>(
        `SELECT s.country_id, count(*) AS count FROM subscribers s JOIN executive_profiles e ON e.id = s.executive_id JOIN users u ON u.id = e.user_id
        WHERE u.email = 'sales@example.com' AND s.status = 'trial' GROUP BY s.country_id`,
      );
      expect(scoped).toEqual([{ country_id: country!.id, count: matching }]);
      const unchanged = await server.db.query(
        `SELECT id, country_id, version FROM subscribers WHERE status = 'trial' AND id = ANY($1::bigint[]) ORDER BY id`,
        [outsideBefore.map((row) => row.id)],
      );
      const assigned = new Set(
        (
          await server.db.query<{ id: number }>(
            `SELECT s.id FROM subscribers s JOIN executive_profiles e ON e.id = s.executive_id JOIN users u ON u.id = e.user_id WHERE u.email = 'sales@example.com'`,
          )
        ).map((row) => row.id),
      );
      expect(unchanged.filter((row) => !assigned.has(row.id as number))).toEqual(
        outsideBefore.filter((row) => !assigned.has(row.id as number)),
      );

      const [entries] = await server.db.query<{ records: number; request: number }>(
        `SELECT count(*) FILTER (WHERE record_id IS NOT NULL) AS records, count(*) FILTER (WHERE record_id IS NULL) AS request FROM audit_log WHERE module = 'SUBSCRIBERS' AND action = 'bulk_update'`,
      );
      expect(entries).toEqual({ records: result.data!.changed, request: 1 });
      const [entry] = await server.db.query<{ changes: Record<string, { after: number }>; user_email: string }>(
        `SELECT changes, user_email FROM audit_log WHERE module = 'SUBSCRIBERS' AND action = 'bulk_update' AND record_id IS NOT NULL LIMIT 1`,
      );
      expect(entry).toMatchObject({ user_email: 'sales@example.com', changes: { country_id: { after: country!.id } } });
    },
  );

  it.skipIf(skip)(
    'a count that moved since the confirmation is a 409 stating the count now, and nothing changes',
    async () => {
      const matching = await total('vouchers?discount_type=flat');
      const answer = await post('vouchers/bulk/status?discount_type=flat', {
        is_active: false,
        expected_count: matching + 1,
      });
      expect(answer.status).toBe(409);
      expect(answer.json().message).toContain(`${matching} record(s) match now`);
      expect(await total('vouchers?discount_type=flat&is_active=false')).toBe(0);
    },
  );

  it.skipIf(skip)('status and delete by filter and search, then the list agrees', async () => {
    const matching = await total('vouchers?discount_type=flat&q=SAVE00');
    expect(matching).toBeGreaterThan(0);
    const status = await post('vouchers/bulk/status?discount_type=flat&q=SAVE00', {
      is_active: false,
      expected_count: matching,
    });
    expect(status.lines.at(-1)?.data).toEqual({ matched: matching, changed: matching });
    expect(await total('vouchers?discount_type=flat&q=SAVE00&is_active=false')).toBe(matching);
    const again = await post('vouchers/bulk/status?discount_type=flat&q=SAVE00', {
      is_active: false,
      expected_count: matching,
    });
    expect(again.lines.at(-1)?.data).toEqual({ matched: matching, changed: 0 });
    const all = await total('vouchers');
    const deleted = await post('vouchers/bulk/delete?discount_type=flat&q=SAVE00', { expected_count: matching });
    expect(deleted.lines.at(-1)?.data).toEqual({ matched: matching, changed: matching });
    expect(await total('vouchers')).toBe(all - matching);
    const [audited] = await server.db.query<{ count: number }>(
      `SELECT count(*) AS count FROM audit_log WHERE module = 'VOUCHER' AND action = 'bulk_delete' AND snapshot IS NOT NULL`,
    );
    expect(audited?.count).toBe(matching);
    // Vouchers keep deleted records: every one is in the trash, restorable.
    expect(
      (await server.db.query<{ count: number }>(`SELECT count(*) AS count FROM trash WHERE module = 'VOUCHER'`))[0]
        ?.count,
    ).toBe(matching);
  });

  it.skipIf(skip)(
    "set field: the value is judged by the field's schema (400 naming it), only the fields the manifest allows, and the right permission",
    async () => {
      const count = await total('vouchers');
      const bad = await post('vouchers/bulk/set', { field: 'usage_limit', value: 0, expected_count: count });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.json().errors)).toEqual(['usage_limit']);
      const wrongType = await post('vouchers/bulk/set', { field: 'usage_limit', value: 'many', expected_count: count });
      expect(Object.keys(wrongType.json().errors)).toEqual(['usage_limit']);
      const notAllowed = await post('vouchers/bulk/set', { field: 'code', value: 'ABCD', expected_count: count });
      expect(notAllowed.status).toBe(400);
      expect(Object.keys(notAllowed.json().errors)).toContain('field');
      const viewer = await server.auth('Read Only');
      expect(
        (await post('vouchers/bulk/set', { field: 'usage_limit', value: 5, expected_count: count }, viewer)).status,
      ).toBe(403);
      expect((await post('subscribers/bulk/status', { is_active: false, expected_count: 1 }, executive)).status).toBe(
        403,
      );
      const noToken = await server.app.inject({
        method: 'POST',
        url: '/api/v1/vouchers/bulk/delete',
        payload: { expected_count: 1 },
      });
      expect(noToken.statusCode).toBe(401);
      const set = await post('vouchers/bulk/set', { field: 'usage_limit', value: 5, expected_count: count });
      expect(set.lines.at(-1)?.data?.matched).toBe(count);
      const [limited] = await server.db.query<{ count: number }>(
        `SELECT count(*) AS count FROM vouchers WHERE usage_limit = 5`,
      );
      expect(limited?.count).toBe(count);
    },
  );

  it.skipIf(skip)('odd spellings of the path reach the same rule', async () => {
    for (const url of [
      '/api/v1/vouchers/%62ulk/delete',
      '//api/v1/vouchers/bulk/delete',
      '/api/v1/Vouchers/bulk/delete',
    ]) {
      const response = await server.app.inject({ method: 'POST', url, payload: { expected_count: 1 } });
      expect([401, 404], url).toContain(response.statusCode);
    }
  });
});
