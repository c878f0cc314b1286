import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';

const databases = await testDatabases();

/** A multipart/form-data body with one CSV file. */
function multipart(text: string): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----scope-test';
  const payload = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="subscribers.csv"\r\nContent-Type: text/csv\r\n\r\n${text}\r\n--${boundary}--\r\n`,
  );
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe.each(databases)("an executive's import of subscribers on $kind", ({ kind, skip }) => {
  let server: TestServer;
  let executive: Record<string, string>;

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind, {}, { demoSubscribers: 20 });
    // The executive's role may import subscribers (the seeded role may not).
    await server.db.query(
      `INSERT INTO role_permissions (role_id, module, action) SELECT id, 'SUBSCRIBERS', 'import' FROM roles WHERE name = 'Sales Executive'`,
    );
    executive = await server.auth('Sales Executive');
  }, 120_000);
  afterAll(async () => server?.close());

  it.skipIf(skip)(
    "changes only their own subscribers, refuses a row naming another executive's, and assigns new ones to them",
    async () => {
      const mine = await server.db.query<{ email: string; name: string }>(
        `SELECT s.email, s.name FROM subscribers s JOIN executive_profiles e ON e.id = s.executive_id JOIN users u ON u.id = e.user_id WHERE u.email = 'sales@example.com' ORDER BY s.id LIMIT 1`,
      );
      const others = await server.db.query<{ email: string; name: string; version: number }>(
        `SELECT s.email, s.name, s.version FROM subscribers s WHERE s.executive_id IS DISTINCT FROM (SELECT e.id FROM executive_profiles e JOIN users u ON u.id = e.user_id WHERE u.email = 'sales@example.com') ORDER BY s.id LIMIT 1`,
      );
      const [country] = await server.db.query<{ id: number }>(`SELECT id FROM countries ORDER BY id LIMIT 1`);
      const csv = [
        'Name,Email,Mobile,Country,Status',
        `Renamed Mine,${mine[0]!.email},9876543210,${country!.id},trial`,
        `Renamed Other,${others[0]!.email},9876543210,${country!.id},trial`,
        `New Person,new.person@example.com,9876543210,${country!.id},trial`,
      ].join('\n');
      const body = multipart(csv);
      const uploaded = await server.app.inject({
        method: 'POST',
        url: '/api/v1/subscribers/import',
        headers: { ...executive, ...body.headers },
        payload: body.payload,
      });
      expect(uploaded.statusCode, uploaded.body).toBe(201);
      const { id, mapping } = uploaded.json().data;
      const applied = await server.app.inject({
        method: 'POST',
        url: `/api/v1/subscribers/import/${id}/apply`,
        headers: executive,
        payload: { mapping },
      });
      const result = JSON.parse(applied.body.trim().split('\n').at(-1)!);
      expect(result.data.counts).toEqual({ create: 1, update: 1, unchanged: 0, error: 1 });
      const [other] = await server.db.query<{ name: string; version: number }>(
        `SELECT name, version FROM subscribers WHERE email = $1`,
        [others[0]!.email],
      );
      expect(other).toEqual({ name: others[0]!.name, version: others[0]!.version });
      const [created] = await server.db.query<{ email: string }>(
        `SELECT s.email FROM subscribers s JOIN executive_profiles e ON e.id = s.executive_id JOIN users u ON u.id = e.user_id WHERE u.email = 'sales@example.com' AND s.email = 'new.person@example.com'`,
      );
      expect(created).toBeDefined();
      const [renamed] = await server.db.query<{ name: string }>(`SELECT name FROM subscribers WHERE email = $1`, [
        mine[0]!.email,
      ]);
      expect(renamed?.name).toBe('Renamed Mine');
    },
  );
});
