import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renameKept } from '../../../codegen/migrations/renameSql.ts';
import { purgeExpiredTrash } from '../audit/retention.ts';
import { entityResource } from '../../registry.ts';
import { ResourceTrash } from './trash.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';

const databases = await testDatabases();
type Answer = {
  data: Record<string, unknown> & { id: number };
  message?: string;
  errors?: Record<string, string>;
  meta?: Record<string, number>;
};
type TrashItem = {
  id: number;
  label: string | null;
  deleted_at: string;
  deleted_by: number | null;
  deleted_by_email: string | null;
  record: Record<string, unknown>;
};

const country = (code: string, name = `Country ${code}`) => ({
  name,
  iso2: code,
  iso3: `${code}X`,
  region: 'europe',
  currency_code: 'EUR',
});

describe.each(databases)('the trash on $kind', ({ kind, skip }) => {
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
  const trash = async (api: string, headers = admin) => {
    const answer = await call('GET', `${api}/trash`, undefined, headers);
    return { status: answer.status, items: answer.body.data as unknown as TrashItem[], meta: answer.body.meta };
  };
  const actions = async (module: string, id: number) =>
    (
      await server.db.query<{ action: string }>(
        'SELECT action FROM audit_log WHERE module = $1 AND record_id = $2 ORDER BY id',
        [module, id],
      )
    ).map((row) => row.action);
  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    admin = await server.auth('Super Admin');
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)(
    'a deleted record leaves lists, options, exports and reads, and waits in the trash with who and when; restore brings it back with its id',
    async () => {
      const id = (await call('POST', 'countries', country('TR', 'Trashland'))).body.data.id;
      expect((await call('DELETE', `countries/${id}`, undefined, { ...admin, 'if-match': '"1"' })).status).toBe(200);
      expect((await call('GET', `countries/${id}`)).status).toBe(404);
      expect((await call('GET', 'countries?q=trashland')).body.meta?.total).toBe(0);
      expect((await call('GET', 'countries/options?q=trash')).body.data).toEqual([]);
      expect((await call('GET', 'countries/export')).text).not.toContain('Trashland');
      const listed = await trash('countries');
      expect(listed.meta).toEqual({ total: 1, page: 1, page_size: 20, pageSize: 20 });
      expect(listed.items[0]).toMatchObject({
        id,
        label: 'Trashland',
        deleted_by: server.userIds.get('admin@example.com'),
        deleted_by_email: 'admin@example.com',
        record: { name: 'Trashland', iso2: 'TR' },
      });
      expect(Date.now() - Date.parse(listed.items[0]!.deleted_at)).toBeLessThan(60_000);
      const restored = await call('POST', `countries/${id}/restore`);
      expect(restored.status).toBe(200);
      expect(restored.body.data).toMatchObject({ id, name: 'Trashland', version: 2 });
      expect(restored.headers.etag).toBe('"2"');
      expect(
        (await call('PUT', `countries/${id}`, country('TR', 'Stale'), { ...admin, 'if-match': '"1"' })).status,
      ).toBe(412);
      expect((await trash('countries')).meta?.total).toBe(0);
      expect((await call('POST', `countries/${id}/restore`)).status).toBe(404);
      expect(await actions('COUNTRIES', id)).toEqual(['create', 'delete', 'restore']);
    },
  );

  it.skipIf(skip)('restoring a role brings back its permissions, which its delete took with it', async () => {
    const role = (await call('POST', 'roles', { name: 'Auditors', description: 'Read the trail' })).body.data.id;
    const etag = (await call('GET', `roles/${role}/permissions`)).headers.etag as string;
    const set = await call(
      'PUT',
      `roles/${role}/permissions`,
      { permissions: { COUNTRIES: ['view', 'edit'] } },
      { ...admin, 'if-match': etag },
    );
    expect(set.status).toBe(200);
    const version = (await call('GET', `roles/${role}`)).headers.etag as string;
    expect((await call('DELETE', `roles/${role}`, undefined, { ...admin, 'if-match': version })).status).toBe(200);
    expect(await server.db.query('SELECT 1 FROM role_permissions WHERE role_id = $1', [role])).toEqual([]);
    expect((await call('POST', `roles/${role}/restore`)).status).toBe(200);
    expect((await call('GET', `roles/${role}/permissions`)).body.data).toEqual({ COUNTRIES: ['edit', 'view'] });
  });

  it.skipIf(skip)(
    'restore refused with a 409 naming the field when its unique value was taken, or a record it names is gone',
    async () => {
      const id = (await call('POST', 'countries', country('UQ', 'Uniqueland'))).body.data.id;
      await call('DELETE', `countries/${id}`, undefined, { ...admin, 'if-match': '"1"' });
      expect((await call('POST', 'countries', country('UQ', 'Uniqueland'))).status).toBe(201);
      const taken = await call('POST', `countries/${id}/restore`);
      expect(taken.status).toBe(409);
      expect(taken.body.errors).toEqual({ name: 'This value is already in use.' });
      expect((await trash('countries')).items.map((item) => item.id)).toContain(id);

      const type = (await call('POST', 'lookup-types', { code: 'fabric', name: 'Fabric' })).body.data.id;
      const lookup = (await call('POST', 'lookups', { lookup_type_id: type, code: 'silk', label: 'Silk' })).body.data
        .id;
      await call('DELETE', `lookups/${lookup}`, undefined, { ...admin, 'if-match': '"1"' });
      await call('DELETE', `lookup-types/${type}`, undefined, { ...admin, 'if-match': '"1"' });
      const orphan = await call('POST', `lookups/${lookup}/restore`);
      expect(orphan.status).toBe(409);
      expect(orphan.body.message).toBe('This lookup cannot be restored: the Lookup Type it names no longer exists.');
      expect((await call('POST', `lookup-types/${type}/restore`)).status).toBe(200);
      expect((await call('POST', `lookups/${lookup}/restore`)).status).toBe(200);
    },
  );

  it.skipIf(skip)('a record still in use is not deleted (409), and nothing goes to the trash', async () => {
    const type = (await call('POST', 'lookup-types', { code: 'grade', name: 'Grade' })).body.data.id;
    await call('POST', 'lookups', { lookup_type_id: type, code: 'a', label: 'A' });
    expect((await call('DELETE', `lookup-types/${type}`, undefined, { ...admin, 'if-match': '"1"' })).status).toBe(409);
    expect((await trash('lookup-types')).items.map((item) => item.id)).not.toContain(type);
    expect(await actions('LOOKUP_TYPES', type)).toEqual(['create']);
  });

  it.skipIf(skip)('delete for good, and the retention purge of what is older than the retention period', async () => {
    const ids: number[] = [];
    for (const code of ['PA', 'PB', 'PC']) ids.push((await call('POST', 'countries', country(code))).body.data.id);
    expect((await call('DELETE', 'countries', { ids })).status).toBe(200);
    const purged = await call('DELETE', `countries/${ids[0]}/permanent`);
    expect(purged.status).toBe(200);
    expect(purged.body.data).toEqual({ id: ids[0] });
    expect((await call('DELETE', `countries/${ids[0]}/permanent`)).status).toBe(404);
    expect((await call('POST', `countries/${ids[0]}/restore`)).status).toBe(404);
    expect(await actions('COUNTRIES', ids[0]!)).toEqual(['create', 'delete', 'purge']);
    await server.db.query(
      `UPDATE trash SET deleted_at = now() - interval '31 days' WHERE module = 'COUNTRIES' AND record_id = $1`,
      [ids[1]],
    );
    expect(await purgeExpiredTrash(server.db, 0)).toBe(0);
    expect(await purgeExpiredTrash(server.db, 30)).toBe(1);
    const left = (await trash('countries')).items.map((item) => item.id);
    expect(left).toContain(ids[2]);
    expect(left).not.toContain(ids[1]);
    const [entry] = await server.db.query<{ action: string; user_id: number | null; details: unknown }>(
      `SELECT action, user_id, details FROM audit_log WHERE module = 'COUNTRIES' AND record_id = $1 ORDER BY id DESC LIMIT 1`,
      [ids[1]],
    );
    expect(entry).toEqual({ action: 'purge', user_id: null, details: { reason: 'retention' } });
  });

  it.skipIf(skip)(
    "a user's trash entry answers no secret, though the stored row keeps the hash for the restore",
    async () => {
      const user = {
        first_name: 'Gone',
        last_name: 'User',
        email: 'gone.user@example.com',
        mobile: '9876543210',
        role_id: 1,
        password: 'Secret@12345',
        confirm_password: 'Secret@12345',
      };
      const id = (await call('POST', 'users', user)).body.data.id;
      await server.db.query(`INSERT INTO notifications (user_id, message) VALUES ($1, 'Welcome')`, [id]);
      await call('DELETE', `users/${id}`, undefined, { ...admin, 'if-match': '"1"' });
      const [kept] = await server.db.query<{ cascaded_rows: Record<string, unknown[]> }>(
        `SELECT cascaded_rows FROM trash WHERE module = 'USERS' AND record_id = $1`,
        [id],
      );
      // The verify link sent to the new user is sign-in state: not kept, so it never works again; the user's own
      // notifications, saved views and list settings come back with them.
      expect(Object.keys(kept!.cascaded_rows).sort()).toEqual(['list_preferences', 'notifications', 'saved_views']);
      const [item] = (await trash('users')).items.filter((candidate) => candidate.id === id);
      expect(item!.record).toMatchObject({ email: 'gone.user@example.com' });
      expect(JSON.stringify(item)).not.toMatch(/hash|argon|Secret@/);
      expect((await call('POST', `users/${id}/restore`)).status).toBe(200);
      const [row] = await server.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [
        id,
      ]);
      expect(row!.password_hash).toMatch(/^\$argon2/);
      expect(await server.db.query('SELECT message FROM notifications WHERE user_id = $1', [id])).toEqual([
        { message: 'Welcome' },
      ]);
    },
  );

  it.skipIf(skip)(
    'a field renamed by a manifest migration is renamed in the trash and the audit log of its module',
    async () => {
      const id = (await call('POST', 'countries', country('RN', 'Renamia'))).body.data.id;
      await call('PUT', `countries/${id}`, country('RN', 'Renamed'), { ...admin, 'if-match': '"1"' });
      await call('DELETE', `countries/${id}`, undefined, { ...admin, 'if-match': '"2"' });
      await server.db.exec(renameKept('COUNTRIES', 'name', 'title').join('\n'));
      const [kept] = await server.db.query<{ stored_row: Record<string, unknown> }>(
        `SELECT stored_row FROM trash WHERE module = 'COUNTRIES' AND record_id = $1`,
        [id],
      );
      expect(kept!.stored_row).toMatchObject({ title: 'Renamed' });
      expect(kept!.stored_row).not.toHaveProperty('name');
      const entries = await server.db.query<{ changes: Record<string, unknown>; snapshot: Record<string, unknown> }>(
        `SELECT changes, snapshot FROM audit_log WHERE module = 'COUNTRIES' AND record_id = $1 ORDER BY id`,
        [id],
      );
      expect(entries[1]!.changes).toEqual({ title: { before: 'Renamia', after: 'Renamed' } });
      expect(entries.every((entry) => entry.snapshot.title !== undefined && entry.snapshot.name === undefined)).toBe(
        true,
      );
      await server.db.exec(renameKept('COUNTRIES', 'title', 'name').join('\n'));
    },
  );

  it.skipIf(skip)(
    'without soft delete a delete removes the record at once, and the resource has no trash routes',
    async () => {
      const countries = entityResource('COUNTRIES')!;
      const id = (await call('POST', 'countries', country('SD'))).body.data.id;
      const immediate = new ResourceTrash({ ...countries, entity: { ...countries.entity, softDelete: false } });
      const actor = { userId: null, email: null, clientAddress: null, requestId: null };
      const removed = await server.db.transaction((tx) => immediate.remove(tx, [id], null, 'any', actor));
      expect(removed.get(id)).toMatchObject({ id, iso2: 'SD' });
      expect(await server.db.query('SELECT 1 FROM countries WHERE id = $1', [id])).toEqual([]);
      expect(await server.db.query(`SELECT 1 FROM trash WHERE module = 'COUNTRIES' AND record_id = $1`, [id])).toEqual(
        [],
      );
      // Uploads: their delete also removes the trade records and files, which no trash could bring back.
      expect(entityResource('DATA_UPLOAD_LOGS')!.entity.softDelete).toBe(false);
      expect(server.app.hasRoute({ method: 'GET', url: '/api/v1/uploads/trash' })).toBe(false);
      expect(server.app.hasRoute({ method: 'POST', url: '/api/v1/uploads/:id/restore' })).toBe(false);
      expect(server.app.hasRoute({ method: 'GET', url: '/api/v1/uploads/:id/history' })).toBe(true);
    },
  );

  it.skipIf(skip)(
    "access: no token 401, a role without the permission 403, another executive's subscriber 404, odd spellings",
    async () => {
      // Sales executives may delete (and so restore) their own subscribers here, to show the scope applies to the trash.
      await server.db.query(
        `INSERT INTO role_permissions (role_id, module, action) SELECT id, 'SUBSCRIBERS', 'delete' FROM roles WHERE name = 'Sales Executive'`,
      );
      const sales = await server.auth('Sales Executive');
      const viewer = await server.auth('Read Only');
      const countryId = (await call('POST', 'countries', country('SX'))).body.data.id;
      const theirs = (
        await call('POST', 'subscribers', {
          name: 'Someone Else',
          email: 'someone.else@example.com',
          mobile: '9876543214',
          country_id: countryId,
        })
      ).body.data.id;
      await call('DELETE', `subscribers/${theirs}`, undefined, { ...admin, 'if-match': '"1"' });
      expect((await call('GET', 'subscribers/trash', undefined, {})).status).toBe(401);
      expect((await call('POST', `subscribers/${theirs}/restore`, undefined, {})).status).toBe(401);
      expect((await call('DELETE', `subscribers/${theirs}/permanent`, undefined, {})).status).toBe(401);
      expect((await call('GET', 'countries/trash', undefined, sales)).status).toBe(403);
      expect((await call('POST', `subscribers/${theirs}/restore`, undefined, sales)).status).toBe(404);
      expect((await call('DELETE', `subscribers/${theirs}/permanent`, undefined, sales)).status).toBe(404);
      expect((await call('POST', `subscribers/${theirs}/restore`, undefined, viewer)).status).toBe(403);
      expect((await call('DELETE', `subscribers/${theirs}/permanent`, undefined, viewer)).status).toBe(403);
      expect((await trash('subscribers', viewer)).items.map((item) => item.id)).toContain(theirs);
      expect((await trash('subscribers', sales)).items).toEqual([]);
      expect((await call('GET', `subscribers/${theirs}/history`, undefined, sales)).status).toBe(404);
      expect((await call('GET', `subscribers/${theirs}/history`)).status).toBe(200);
      for (const path of [
        '/api/v1/subscribers/%74rash',
        '/api/v1//subscribers/trash',
        '/api/v1/SUBSCRIBERS/trash',
        `/api/v1/subscribers/${theirs}/Restore`,
      ]) {
        const answer = await server.app.inject({ method: path.endsWith('estore') ? 'POST' : 'GET', url: path });
        expect([401, 404], path).toContain(answer.statusCode);
      }
    },
  );
});
