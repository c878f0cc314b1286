/**
 * An executive's scope follows relations and holds on every path: the records of subscribers (contacts, activity) are
 * scoped by their subscriber's assignment on every endpoint, and no path (edit, bulk change, import, restore of a
 * version) can move a record out of the caller's scope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';

const databases = await testDatabases();

const CONTACT_ACTIONS = ['view', 'add', 'edit', 'delete', 'ACTIVE_INACTIVE', 'download', 'view_detail'];

describe.each(databases)("an executive's scope on every path on $kind", ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let executive: Record<string, string>;
  const ids = { mine: 0, other: 0, myContact: 0, otherContact: 0, otherExecutive: 0, otherCode: '' };
  const send = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ) => {
    const response = await server.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers,
      ...(payload ? { payload } : {}),
    });
    return {
      status: response.statusCode,
      body: response.body,
      etag: String(response.headers.etag ?? ''),
      json: () => response.json(),
    };
  };
  const lastLine = (body: string) => JSON.parse(body.trim().split('\n').at(-1)!);

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind, {}, { demoSubscribers: 20 });
    await server.db.query(
      `INSERT INTO role_permissions (role_id, module, action)
       SELECT r.id, m.module, m.action FROM roles r, (SELECT 'SUBSCRIBERS_LIST' AS module, unnest($1::text[]) AS action
         UNION ALL SELECT 'SUBSCRIBERS_DETAILS', unnest(ARRAY['view', 'view_detail', 'download'])
         UNION ALL SELECT 'SUBSCRIBERS', unnest(ARRAY['import'])) m
        WHERE r.name = 'Sales Executive' ON CONFLICT DO NOTHING`,
      [CONTACT_ACTIONS],
    );
    // A second executive, whose subscriber the first must never reach.
    const [profile] = await server.db.query<{ id: number; employee_code: string }>(
      `INSERT INTO executive_profiles (employee_code, user_id) VALUES ('EXE-9999', (SELECT id FROM users WHERE email = 'admin@example.com')) RETURNING id, employee_code`,
    );
    ids.otherExecutive = Number(profile!.id);
    ids.otherCode = profile!.employee_code;
    const [mine] = await server.db.query<{ id: number }>(
      `SELECT s.id FROM subscribers s JOIN executive_profiles e ON e.id = s.executive_id JOIN users u ON u.id = e.user_id WHERE u.email = 'sales@example.com' ORDER BY s.id LIMIT 1`,
    );
    ids.mine = Number(mine!.id);
    const [other] = await server.db.query<{ id: number }>(
      `UPDATE subscribers SET executive_id = $1 WHERE id = (SELECT min(id) FROM subscribers WHERE id <> $2) RETURNING id`,
      [ids.otherExecutive, ids.mine],
    );
    ids.other = Number(other!.id);
    const contacts = await server.db.query<{ id: number }>(
      `INSERT INTO subscriber_contacts (subscriber_id, contact_name, email, mobile) VALUES ($1, 'Mine Contact', 'mine.contact@example.com', '9876543210'), ($2, 'Other Contact', 'other.contact@example.com', '9876543210') RETURNING id`,
      [ids.mine, ids.other],
    );
    ids.myContact = Number(contacts[0]!.id);
    ids.otherContact = Number(contacts[1]!.id);
    await server.db.query(`INSERT INTO subscriber_activity (subscriber_id, login_count) VALUES ($1, 3), ($2, 5)`, [
      ids.mine,
      ids.other,
    ]);
    admin = await server.auth('Super Admin');
    executive = await server.auth('Sales Executive');
  }, 120_000);
  afterAll(async () => server?.close());

  it.skipIf(skip)(
    "contacts and activity of another executive's subscriber: not listed, found, exported, read, offered or changed",
    async () => {
      const listed = await send('GET', 'subscriber-contacts?_page_size=100', executive);
      expect(listed.status).toBe(200);
      const names = (listed.json().data as Array<{ contact_name: string }>).map((row) => row.contact_name);
      expect(names).toContain('Mine Contact');
      expect(names).not.toContain('Other Contact');
      expect((await send('GET', 'subscriber-contacts?_page_size=100', admin)).body).toContain('Other Contact');
      const activity = (await send('GET', 'subscriber-activity?_page_size=100', executive)).json().data as Array<{
        subscriber_id: number;
      }>;
      expect(activity.map((row) => row.subscriber_id)).toEqual([ids.mine]);

      expect((await send('GET', `subscriber-contacts/${ids.otherContact}`, executive)).status).toBe(404);
      expect((await send('GET', `subscriber-contacts/${ids.otherContact}/history`, executive)).status).toBe(404);
      expect((await send('GET', 'subscriber-contacts/export', executive)).body).not.toContain('Other Contact');
      expect((await send('GET', 'subscriber-contacts/options?q=Contact', executive)).body).not.toContain(
        'Other Contact',
      );
      const found = await send('GET', 'search?q=contact', executive);
      expect(found.status).toBe(200);
      expect(found.body).toContain('Mine Contact');
      expect(found.body).not.toContain('Other Contact');

      const other = await send('GET', `subscriber-contacts/${ids.otherContact}`, admin);
      const edit = await send(
        'PUT',
        `subscriber-contacts/${ids.otherContact}`,
        { ...executive, 'if-match': other.etag },
        { subscriber_id: ids.other, contact_name: 'Taken', email: 'x@example.com', mobile: '9876543210' },
      );
      expect(edit.status).toBe(404);
      expect(
        (await send('DELETE', `subscriber-contacts/${ids.otherContact}`, { ...executive, 'if-match': other.etag }))
          .status,
      ).toBe(404);
      expect(
        (await send('PATCH', 'subscriber-contacts/status', executive, { ids: [ids.otherContact], is_active: false }))
          .status,
      ).toBe(404);
    },
  );

  it.skipIf(skip)(
    'a contact is created only on a subscriber in scope, and cannot be moved to one outside it',
    async () => {
      const refused = await send('POST', 'subscriber-contacts', executive, {
        subscriber_id: ids.other,
        contact_name: 'Sneaky',
        email: 'sneaky@example.com',
        mobile: '9876543210',
      });
      expect(refused.status).toBe(403);
      expect(await server.db.query(`SELECT 1 FROM subscriber_contacts WHERE contact_name = 'Sneaky'`)).toEqual([]);
      const created = await send('POST', 'subscriber-contacts', executive, {
        subscriber_id: ids.mine,
        contact_name: 'Allowed',
        email: 'allowed@example.com',
        mobile: '9876543210',
      });
      expect(created.status, created.body).toBe(201);
      const moved = await send(
        'PUT',
        `subscriber-contacts/${created.json().data.id}`,
        { ...executive, 'if-match': created.etag },
        { subscriber_id: ids.other, contact_name: 'Allowed', email: 'allowed@example.com', mobile: '9876543210' },
      );
      expect(moved.status).toBe(403);
      const [stored] = await server.db.query<{ subscriber_id: number }>(
        `SELECT subscriber_id FROM subscriber_contacts WHERE contact_name = 'Allowed'`,
      );
      expect(Number(stored!.subscriber_id)).toBe(ids.mine);
    },
  );

  it.skipIf(skip)("the trash of contacts shows and restores only those of the executive's subscribers", async () => {
    for (const id of [ids.myContact, ids.otherContact]) {
      const current = await send('GET', `subscriber-contacts/${id}`, admin);
      expect((await send('DELETE', `subscriber-contacts/${id}`, { ...admin, 'if-match': current.etag })).status).toBe(
        200,
      );
    }
    const trash = await send('GET', 'subscriber-contacts/trash', executive);
    expect(trash.body).toContain('Mine Contact');
    expect(trash.body).not.toContain('Other Contact');
    expect((await send('POST', `subscriber-contacts/${ids.otherContact}/restore`, executive)).status).toBe(404);
    expect((await send('POST', `subscriber-contacts/${ids.myContact}/restore`, executive)).status).toBe(200);
  });

  it.skipIf(skip)(
    'no path moves a subscriber to another executive: edit, bulk set, import, restore of a version',
    async () => {
      const before = await send('GET', `subscribers/${ids.mine}`, executive);
      const record = before.json().data as Record<string, unknown>;
      const body = {
        name: record.name,
        email: record.email,
        mobile: record.mobile,
        country_id: record.country_id,
        executive_id: ids.otherExecutive,
      };
      expect(
        (await send('PUT', `subscribers/${ids.mine}`, { ...executive, 'if-match': before.etag }, body)).status,
      ).toBe(403);

      const matching = (
        await send('GET', `subscribers?q=${encodeURIComponent(String(record.email))}`, executive)
      ).json().meta.total;
      const bulk = await send('POST', `subscribers/bulk/set?q=${encodeURIComponent(String(record.email))}`, executive, {
        field: 'executive_id',
        value: ids.otherExecutive,
        expected_count: matching,
      });
      expect(lastLine(bulk.body).error?.status ?? bulk.status).toBe(403);

      const csv = `Email,Executive\n${String(record.email)},${ids.otherCode}\n`;
      const boundary = '----scope';
      const payload = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
      );
      const uploaded = await server.app.inject({
        method: 'POST',
        url: '/api/v1/subscribers/import',
        headers: { ...executive, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(uploaded.statusCode, uploaded.body).toBe(201);
      const { id, mapping } = uploaded.json().data as { id: number; mapping: Record<string, string | null> };
      expect(mapping).toEqual({ Email: 'email', Executive: 'executive_id' });
      const dryRun = lastLine((await send('POST', `subscribers/import/${id}/dry-run`, executive, { mapping })).body);
      expect(dryRun.data.counts).toEqual({ create: 0, update: 0, unchanged: 0, error: 1 });
      expect(dryRun.data.rows[0].errors).toEqual({ _: 'This row would move the record outside your assignment.' });
      const applied = lastLine((await send('POST', `subscribers/import/${id}/apply`, executive, { mapping })).body);
      expect(applied.data.counts.update).toBe(0);

      // A version of the record assigned elsewhere, written by an administrator, is not restorable by the executive.
      const moved = await send('PUT', `subscribers/${ids.mine}`, { ...admin, 'if-match': before.etag }, body);
      expect(moved.status, moved.body).toBe(200);
      const back = await send(
        'PUT',
        `subscribers/${ids.mine}`,
        { ...admin, 'if-match': moved.etag },
        { ...body, executive_id: record.executive_id },
      );
      expect(back.status).toBe(200);
      const history = (await send('GET', `subscribers/${ids.mine}/history`, executive)).json().data as Array<{
        id: number;
        changes: Record<string, { after?: unknown }>;
        restorable: boolean;
      }>;
      const elsewhere = history.find((entry) => entry.changes.executive_id?.after === ids.otherExecutive)!;
      expect(elsewhere.restorable).toBe(false);
      expect(
        (
          await send('POST', `subscribers/${ids.mine}/history/${elsewhere.id}/restore`, {
            ...executive,
            'if-match': back.etag,
          })
        ).status,
      ).toBe(403);
      const [stored] = await server.db.query<{ executive_id: number }>(
        `SELECT executive_id FROM subscribers WHERE id = $1`,
        [ids.mine],
      );
      expect(stored!.executive_id).toBe(record.executive_id);
    },
  );

  it.skipIf(skip)(
    "an executive's dry run is recorded, and a key outside their scope reads as a value in use",
    async () => {
      const [other] = await server.db.query<{ email: string }>(`SELECT email FROM subscribers WHERE id = $1`, [
        ids.other,
      ]);
      const csv = `Name,Email,Mobile,Status\nAnyone,${other!.email},9876543210,trial\n`;
      const boundary = '----scope2';
      const payload = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="keys.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
      );
      const uploaded = await server.app.inject({
        method: 'POST',
        url: '/api/v1/subscribers/import',
        headers: { ...executive, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      const { id, mapping } = uploaded.json().data as { id: number; mapping: Record<string, string | null> };
      const dryRun = lastLine((await send('POST', `subscribers/import/${id}/dry-run`, executive, { mapping })).body);
      expect(dryRun.data.rows[0].errors).toEqual({ email: 'This value is already in use.' });
      const [entry] = await server.db.query<{ user_email: string; details: Record<string, unknown> }>(
        `SELECT user_email, details FROM audit_log WHERE action = 'import_dry_run' ORDER BY id DESC LIMIT 1`,
      );
      expect(entry).toMatchObject({
        user_email: 'sales@example.com',
        details: { file_name: 'keys.csv', rows: 1, error: 1 },
      });
    },
  );
});
