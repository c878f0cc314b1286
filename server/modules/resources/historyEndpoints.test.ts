import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';

const databases = await testDatabases();
type Answer = {
  data: Record<string, unknown> & { id: number };
  message?: string;
  errors?: Record<string, string>;
  meta?: Record<string, number>;
};
type Entry = {
  id: number;
  action: string;
  record_id: number | null;
  user_id: number | null;
  request_id: string | null;
  changes: Record<string, unknown>;
  snapshot: Record<string, unknown> | null;
  details: Record<string, unknown>;
};
type HistoryItem = Entry & {
  restorable: boolean;
  labels: Record<string, { before: string | null; after: string | null }>;
};

const country = (code: string, name = `Country ${code}`) => ({
  name,
  iso2: code,
  iso3: `${code}X`,
  region: 'asia',
  currency_code: 'INR',
});

describe.each(databases)('audit entries and record history on $kind', ({ kind, skip }) => {
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
      headers: response.headers,
    };
  };
  const entries = (module: string) =>
    server.db.query<Entry>(
      'SELECT id, action, record_id, user_id, request_id, changes, snapshot, details FROM audit_log WHERE module = $1 ORDER BY id',
      [module],
    );
  const history = async (url: string, headers = admin) => {
    const answer = await call('GET', url, undefined, headers);
    return { status: answer.status, items: answer.body.data as unknown as HistoryItem[], meta: answer.body.meta };
  };
  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    admin = await server.auth('Super Admin');
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)(
    'each generic write leaves exactly its entry, in its transaction: before -> after, who, the request',
    async () => {
      const created = await call('POST', 'countries', country('AA'));
      const id = created.body.data.id;
      await call('PUT', `countries/${id}`, country('AA', 'Renamed'), { ...admin, 'if-match': '"1"' });
      await call('PATCH', `countries/${id}/status`, { is_active: false }, { ...admin, 'if-match': '"2"' });
      const others = [
        (await call('POST', 'countries', country('AB'))).body.data.id,
        (await call('POST', 'countries', country('AC'))).body.data.id,
      ];
      expect((await call('PATCH', 'countries/status', { ids: others, is_active: false })).status).toBe(200);
      expect((await call('DELETE', 'countries', { ids: others })).status).toBe(200);
      expect((await call('DELETE', `countries/${id}`, undefined, { ...admin, 'if-match': '"3"' })).status).toBe(200);
      const logged = await entries('COUNTRIES');
      expect(logged.map((entry) => [entry.action, entry.record_id])).toEqual([
        ['create', id],
        ['update', id],
        ['status', id],
        ['create', others[0]],
        ['create', others[1]],
        ['status', others[0]],
        ['status', others[1]],
        ['bulk_status', null],
        ['delete', others[0]],
        ['delete', others[1]],
        ['bulk_delete', null],
        ['delete', id],
      ]);
      expect(logged[1]!.changes).toEqual({ name: { before: 'Country AA', after: 'Renamed' } });
      expect(logged[2]!.changes).toEqual({ is_active: { before: true, after: false } });
      expect(logged[2]!.snapshot).toMatchObject({ id, name: 'Renamed', is_active: false });
      expect(logged[7]!.details).toEqual({ ids: others, count: 2 });
      expect(logged[11]!.snapshot).toMatchObject({ name: 'Renamed' });
      expect(new Set(logged.map((entry) => entry.user_id))).toEqual(new Set([server.userIds.get('admin@example.com')]));
      expect(new Set(logged.map((entry) => entry.request_id)).size).toBe(8);
    },
  );

  it.skipIf(skip)("no entry holds a secret: a user's password and its hash only show as changed", async () => {
    const user = {
      first_name: 'Audit',
      last_name: 'Trail',
      email: 'audit.trail@example.com',
      mobile: '9876543210',
      role_id: 1,
    };
    const created = await call('POST', 'users', {
      ...user,
      password: 'Secret@12345',
      confirm_password: 'Secret@12345',
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const updated = await call(
      'PUT',
      `users/${id}`,
      { ...user, password: 'Other@123456', confirm_password: 'Other@123456' },
      { ...admin, 'if-match': '"1"' },
    );
    expect(updated.status).toBe(200);
    const logged = await entries('USERS');
    const [hash] = await server.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [
      id,
    ]);
    const text = JSON.stringify(logged);
    for (const secret of ['Secret@12345', 'Other@123456', hash!.password_hash, '$argon2'])
      expect(text).not.toContain(secret);
    expect(logged.at(-1)!.changes).toEqual({ password_hash: { changed: true } });
    expect(logged.at(-1)!.snapshot).not.toHaveProperty('password_hash');
  });

  it.skipIf(skip)(
    'a change whose entry cannot be written does not happen, and a change that rolls back leaves no entry',
    async () => {
      const id = (await call('POST', 'countries', country('FA'))).body.data.id;
      await server.db.exec(`
      CREATE FUNCTION refuse_entry() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'entry refused'; END $$;
      CREATE TRIGGER refuse_entry BEFORE INSERT ON audit_log FOR EACH ROW WHEN (NEW.changes -> 'name' ->> 'after' = 'No Entry') EXECUTE FUNCTION refuse_entry();
      CREATE FUNCTION refuse_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'commit refused'; END $$;
      CREATE CONSTRAINT TRIGGER refuse_commit AFTER UPDATE ON countries DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.name = 'Rolled Back') EXECUTE FUNCTION refuse_commit();`);
      try {
        const before = (await entries('COUNTRIES')).length;
        expect(
          (await call('PUT', `countries/${id}`, country('FA', 'No Entry'), { ...admin, 'if-match': '"1"' })).status,
        ).toBe(500);
        expect(
          (await call('PUT', `countries/${id}`, country('FA', 'Rolled Back'), { ...admin, 'if-match': '"1"' })).status,
        ).toBe(500);
        expect((await call('GET', `countries/${id}`)).body.data).toMatchObject({ name: 'Country FA', version: 1 });
        expect((await entries('COUNTRIES')).length).toBe(before);
      } finally {
        await server.db.exec(
          'DROP TRIGGER refuse_entry ON audit_log; DROP TRIGGER refuse_commit ON countries; DROP FUNCTION refuse_entry(); DROP FUNCTION refuse_commit();',
        );
      }
    },
  );

  it.skipIf(skip)('20 parallel updates of different records are each logged', async () => {
    const ids: number[] = [];
    for (let index = 0; index < 20; index += 1)
      ids.push(
        (await call('POST', 'lookup-types', { code: `parallel_${index}`, name: `Parallel ${index}` })).body.data.id,
      );
    const answers = await Promise.all(
      ids.map((id, index) =>
        call(
          'PUT',
          `lookup-types/${id}`,
          { code: `parallel_${index}`, name: `Changed ${index}` },
          { ...admin, 'if-match': '"1"' },
        ),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(ids.map(() => 200));
    const updates = (await entries('LOOKUP_TYPES')).filter((entry) => entry.action === 'update');
    expect(updates.map((entry) => entry.record_id).sort((a, b) => a! - b!)).toEqual(ids);
  });

  it.skipIf(skip)(
    'restore a version: edit, restore, the history shows both and the values are back; a stale If-Match is a 412',
    async () => {
      const typeA = (await call('POST', 'lookup-types', { code: 'colour', name: 'Colour' })).body.data.id;
      const typeB = (await call('POST', 'lookup-types', { code: 'size', name: 'Size' })).body.data.id;
      const created = await call('POST', 'lookups', {
        lookup_type_id: typeA,
        code: 'red',
        label: 'Red',
        sort_order: 1,
      });
      const id = created.body.data.id;
      expect(
        (
          await call(
            'PUT',
            `lookups/${id}`,
            { lookup_type_id: typeB, code: 'large', label: 'Large', sort_order: 2 },
            { ...admin, 'if-match': '"1"' },
          )
        ).status,
      ).toBe(200);
      const read = await history(`lookups/${id}/history`);
      expect(read.meta).toEqual({ total: 2, page: 1, page_size: 20, pageSize: 20 });
      expect(read.items.map((item) => [item.action, item.restorable])).toEqual([
        ['update', false],
        ['create', true],
      ]);
      expect(read.items[0]!.labels).toEqual({ lookup_type_id: { before: 'Colour', after: 'Size' } });
      const first = read.items[1]!.id;
      expect((await call('POST', `lookups/${id}/history/${first}/restore`, undefined, admin)).status).toBe(428);
      expect(
        (await call('POST', `lookups/${id}/history/${first}/restore`, undefined, { ...admin, 'if-match': '"1"' }))
          .status,
      ).toBe(412);
      const restored = await call('POST', `lookups/${id}/history/${first}/restore`, undefined, {
        ...admin,
        'if-match': '"2"',
      });
      expect(restored.status).toBe(200);
      expect(restored.body.data).toMatchObject({
        lookup_type_id: typeA,
        code: 'red',
        label: 'Red',
        sort_order: 1,
        version: 3,
      });
      expect(restored.headers.etag).toBe('"3"');
      const after = await history(`lookups/${id}/history?_page_size=1`);
      expect(after.meta).toEqual({ total: 3, page: 1, page_size: 1, pageSize: 1 });
      expect(after.items[0]).toMatchObject({
        action: 'restore_version',
        details: { entry: first },
        changes: { code: { before: 'large', after: 'red' } },
      });
      expect(
        (await call('POST', `lookups/${id}/history/999999/restore`, undefined, { ...admin, 'if-match': '"3"' })).status,
      ).toBe(404);
    },
  );

  it.skipIf(skip)('restore refused, naming the field: a unique value taken since, a related record gone', async () => {
    const type = (await call('POST', 'lookup-types', { code: 'shape', name: 'Shape' })).body.data.id;
    const gone = (await call('POST', 'lookup-types', { code: 'gone', name: 'Gone' })).body.data.id;
    const id = (await call('POST', 'lookups', { lookup_type_id: type, code: 'round', label: 'Round' })).body.data.id;
    const versions = await history(`lookups/${id}/history`);
    await call(
      'PUT',
      `lookups/${id}`,
      { lookup_type_id: type, code: 'square', label: 'Square' },
      { ...admin, 'if-match': '"1"' },
    );
    await call('POST', 'lookups', { lookup_type_id: type, code: 'round', label: 'Round again' });
    const taken = await call('POST', `lookups/${id}/history/${versions.items[0]!.id}/restore`, undefined, {
      ...admin,
      'if-match': '"2"',
    });
    expect(taken.status).toBe(400);
    expect(taken.body.errors).toEqual({ code: 'This value is already in use for this Lookup type.' });
    const other = (await call('POST', 'lookups', { lookup_type_id: gone, code: 'oval', label: 'Oval' })).body.data.id;
    const before = await history(`lookups/${other}/history`);
    await call(
      'PUT',
      `lookups/${other}`,
      { lookup_type_id: type, code: 'oval', label: 'Oval' },
      { ...admin, 'if-match': '"1"' },
    );
    expect((await call('DELETE', `lookup-types/${gone}`, undefined, { ...admin, 'if-match': '"1"' })).status).toBe(200);
    const missing = await call('POST', `lookups/${other}/history/${before.items[0]!.id}/restore`, undefined, {
      ...admin,
      'if-match': '"2"',
    });
    expect(missing.status).toBe(409);
    expect(missing.body.message).toBe('The Lookup Type this version names no longer exists.');
    expect(missing.body.errors).toEqual({ lookup_type_id: 'The Lookup Type this version names no longer exists.' });
    expect((await call('GET', `lookups/${other}`)).body.data).toMatchObject({ lookup_type_id: type, version: 2 });
  });

  it.skipIf(skip)(
    'restore refused, naming the field, when the version breaks a rule the manifest has tightened since',
    async () => {
      const type = (await call('POST', 'lookup-types', { code: 'finish', name: 'Finish' })).body.data.id;
      const id = (await call('POST', 'lookups', { lookup_type_id: type, code: 'matte', label: 'Matte' })).body.data.id;
      const versions = await history(`lookups/${id}/history`);
      await call(
        'PUT',
        `lookups/${id}`,
        { lookup_type_id: type, code: 'gloss', label: 'Gloss' },
        { ...admin, 'if-match': '"1"' },
      );
      // The version was written under rules that allowed a code this manifest refuses (upper case, a space).
      await server.db.query(
        `UPDATE audit_log SET snapshot = jsonb_set(snapshot, '{code}', '"Old Matte"') WHERE id = $1`,
        [versions.items[0]!.id],
      );
      const refused = await call('POST', `lookups/${id}/history/${versions.items[0]!.id}/restore`, undefined, {
        ...admin,
        'if-match': '"2"',
      });
      expect(refused.status).toBe(409);
      expect(Object.keys(refused.body.errors ?? {})).toEqual(['code']);
      expect(refused.body.message).toMatch(/^This version no longer meets the rules of a lookup: Code: /);
      expect((await call('GET', `lookups/${id}`)).body.data).toMatchObject({ code: 'gloss', version: 2 });
    },
  );

  it.skipIf(skip)(
    "access: no token 401, a role without the permission 403, another executive's subscriber 404, odd spellings",
    async () => {
      const id = (await call('POST', 'countries', country('ZZ'))).body.data.id;
      const viewer = await server.auth('Read Only');
      const sales = await server.auth('Sales Executive');
      expect((await call('GET', `countries/${id}/history`, undefined, {})).status).toBe(401);
      expect((await call('GET', `countries/${id}/history`, undefined, sales)).status).toBe(403);
      const readable = await history(`countries/${id}/history`, viewer);
      expect(readable.status).toBe(200);
      expect(readable.items[0]!.restorable).toBe(false);
      expect(
        (
          await call('POST', `countries/${id}/history/${readable.items[0]!.id}/restore`, undefined, {
            ...viewer,
            'if-match': '"1"',
          })
        ).status,
      ).toBe(403);
      expect((await call('GET', 'countries/999999/history')).status).toBe(404);
      const subscriber = await call('POST', 'subscribers', {
        name: 'Not Theirs',
        email: 'not.theirs@example.com',
        mobile: '9876543214',
        country_id: id,
      });
      expect(subscriber.status).toBe(201);
      const other = subscriber.body.data.id;
      expect((await call('GET', `subscribers/${other}/history`, undefined, sales)).status).toBe(404);
      const [entry] = (await history(`subscribers/${other}/history`)).items;
      expect(
        (
          await call('POST', `subscribers/${other}/history/${entry!.id}/restore`, undefined, {
            ...sales,
            'if-match': '"1"',
          })
        ).status,
      ).toBe(404);
      for (const path of [
        `/api/v1/countries/${id}/%68istory`,
        `/api/v1/countries//${id}/history`,
        `/api/v1/COUNTRIES/${id}/history`,
        `/api/v1/countries/${id}/History`,
      ]) {
        const answer = await server.app.inject({ method: 'GET', url: path });
        expect([401, 404], path).toContain(answer.statusCode);
      }
    },
  );
});
