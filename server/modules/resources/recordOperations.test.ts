/**
 * Every write path runs the same record operations: a fixture behaviour on vouchers records each hook it is given,
 * and each path (create, update, status one and several, delete one and several, restore from the trash, restore a
 * version, set on all matching, import creating and updating) is held to the hooks a change of its kind runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { conflict } from '../../http/errors.ts';
import type { RecordChange, ResourceBehaviour } from './behaviours.ts';

const databases = await testDatabases();

type Call = { hook: string; kinds?: string[]; ids?: number[]; body?: Record<string, unknown>; user?: number | null };

/** A behaviour that records every call it gets, and refuses any change whose body gives a usage limit of 99. */
function recordingBehaviour(calls: Call[]): ResourceBehaviour {
  const kinds = (changes: readonly RecordChange[]) => changes.map((change) => change.kind);
  return {
    async guard(changes, context, write) {
      calls.push({ hook: 'guard', kinds: kinds(changes), user: context.user?.id ?? null });
      if (changes.some((change) => 'body' in change && change.body.usage_limit === 99))
        throw conflict('Refused by the guard.');
      return write();
    },
    async prepare(values, change, context) {
      calls.push({ hook: 'prepare', kinds: [change.kind], body: change.body, user: context.user?.id ?? null });
      // A preparation's value is what is stored: the code's description says it was prepared.
      if (change.kind === 'create') values.description = `prepared ${String(change.body.code)}`;
    },
    async afterCreate(id, body) {
      calls.push({ hook: 'afterCreate', ids: [id], body });
    },
    async afterUpdate(ids, body) {
      calls.push({ hook: 'afterUpdate', ids: [...ids], body });
    },
    async afterDelete(ids) {
      calls.push({ hook: 'afterDelete', ids: [...ids] });
    },
  };
}

describe.each(databases)('every write path runs the behaviour hooks on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  const calls: Call[] = [];
  const send = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) => {
    const response = await server.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { ...admin, ...headers },
      ...(payload ? { payload } : {}),
    });
    return {
      status: response.statusCode,
      body: response.body,
      etag: String(response.headers.etag ?? ''),
      json: () => response.json(),
    };
  };
  /** The hooks a path called, and clears them for the next. */
  const taken = () => calls.splice(0, calls.length);
  const hooks = (list: Call[]) => list.map((call) => call.hook);
  const createVoucher = async (code: string) => {
    const created = await send('POST', 'vouchers', {
      code,
      discount_type: 'flat',
      discount_value: 10,
      valid_from: '2026-01-01',
      valid_to: '2026-12-31',
    });
    expect(created.status, created.body).toBe(201);
    return { id: Number(created.json().data.id), etag: created.etag };
  };

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind, {}, { behaviours: { VOUCHER: recordingBehaviour(calls) } });
    admin = await server.auth('Super Admin');
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)('create: guard, prepare (its value stored), afterCreate, and an entry', async () => {
    const { id } = await createVoucher('HOOK0001');
    const list = taken();
    expect(hooks(list)).toEqual(['guard', 'prepare', 'afterCreate']);
    expect(list[0]).toMatchObject({ kinds: ['create'], user: server.userIds.get('admin@example.com') });
    expect(list[2]!.ids).toEqual([id]);
    const [stored] = await server.db.query('SELECT description FROM vouchers WHERE id = $1', [id]);
    expect(stored).toEqual({ description: 'prepared HOOK0001' });
  });

  it.skipIf(skip)(
    'update, restore a version, status one and several: guard, prepare, afterUpdate each time',
    async () => {
      const { id, etag } = await createVoucher('HOOK0002');
      taken();
      const updated = await send(
        'PUT',
        `vouchers/${id}`,
        {
          code: 'HOOK0002',
          discount_type: 'flat',
          discount_value: 20,
          valid_from: '2026-01-01',
          valid_to: '2026-12-31',
        },
        { 'if-match': etag },
      );
      expect(updated.status, updated.body).toBe(200);
      expect(hooks(taken())).toEqual(['guard', 'prepare', 'afterUpdate']);

      const history = await send('GET', `vouchers/${id}/history`);
      const older = (history.json().data as Array<{ id: number; action: string; restorable: boolean }>).find(
        (entry) => entry.action === 'create',
      )!;
      expect(older.restorable).toBe(true);
      const restored = await send('POST', `vouchers/${id}/history/${older.id}/restore`, undefined, {
        'if-match': updated.etag,
      });
      expect(restored.status, restored.body).toBe(200);
      const restoreCalls = taken();
      expect(hooks(restoreCalls)).toEqual(['guard', 'prepare', 'afterUpdate']);
      expect(restoreCalls[1]!.body).toMatchObject({ discount_value: 10 });

      expect(
        (await send('PATCH', `vouchers/${id}/status`, { is_active: false }, { 'if-match': restored.etag })).status,
      ).toBe(200);
      const statusCalls = taken();
      expect(hooks(statusCalls)).toEqual(['guard', 'prepare', 'afterUpdate']);
      expect(statusCalls[2]).toMatchObject({ ids: [id], body: { is_active: false } });

      const other = await createVoucher('HOOK0003');
      taken();
      expect((await send('PATCH', 'vouchers/status', { ids: [id, other.id], is_active: true })).status).toBe(200);
      expect(
        taken()
          .find((call) => call.hook === 'afterUpdate')!
          .ids!.sort(),
      ).toEqual([id, other.id].sort());
    },
  );

  it.skipIf(skip)('set on all matching: guard, prepare and afterUpdate with the matching records', async () => {
    const { id } = await createVoucher('HOOK0004');
    taken();
    const count = Number((await send('GET', 'vouchers?q=HOOK0004')).json().meta.total);
    const answer = await send('POST', 'vouchers/bulk/set?q=HOOK0004', {
      field: 'usage_limit',
      value: 7,
      expected_count: count,
    });
    expect(answer.status, answer.body).toBe(200);
    const list = taken();
    expect(hooks(list)).toEqual(['guard', 'prepare', 'afterUpdate']);
    expect(list[2]).toMatchObject({ ids: [id], body: { usage_limit: 7 } });
  });

  it.skipIf(skip)(
    'delete one and several, then restore from the trash: guard and afterDelete, guard on restore',
    async () => {
      const one = await createVoucher('HOOK0005');
      const two = await createVoucher('HOOK0006');
      taken();
      expect((await send('DELETE', `vouchers/${one.id}`, undefined, { 'if-match': one.etag })).status).toBe(200);
      expect(taken().map((call) => [call.hook, call.kinds ?? call.ids])).toEqual([
        ['guard', ['delete']],
        ['afterDelete', [one.id]],
      ]);
      expect((await send('DELETE', 'vouchers', { ids: [two.id] })).status).toBe(200);
      expect(hooks(taken())).toEqual(['guard', 'afterDelete']);
      expect((await send('POST', `vouchers/${one.id}/restore`)).status).toBe(200);
      expect(taken().map((call) => [call.hook, call.kinds])).toEqual([['guard', ['restore']]]);
    },
  );

  it.skipIf(skip)(
    'an import: one guard per batch naming every row, prepare per row, afterCreate and afterUpdate per record',
    async () => {
      const existing = await createVoucher('HOOK0007');
      taken();
      const file = [
        'Code,Discount type,Discount value,Valid from,Valid to',
        'HOOK0007,flat,55,2026-01-01,2026-12-31',
        'HOOK0008,flat,5,2026-01-01,2026-12-31',
      ].join('\n');
      const boundary = '----hooks';
      const payload = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="v.csv"\r\nContent-Type: text/csv\r\n\r\n${file}\r\n--${boundary}--\r\n`,
      );
      const uploaded = await server.app.inject({
        method: 'POST',
        url: '/api/v1/vouchers/import',
        headers: { ...admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(uploaded.statusCode, uploaded.body).toBe(201);
      const { id, mapping } = uploaded.json().data as { id: number; mapping: Record<string, string | null> };
      const applied = await send('POST', `vouchers/import/${id}/apply`, { mapping });
      expect(applied.status, applied.body).toBe(200);
      expect(applied.body).toContain('"create":1');
      const list = taken();
      expect(list.filter((call) => call.hook === 'guard').map((call) => call.kinds)).toEqual([['create', 'update']]);
      expect(hooks(list).filter((hook) => hook === 'prepare')).toHaveLength(2);
      expect(list.find((call) => call.hook === 'afterUpdate')).toMatchObject({
        ids: [existing.id],
        body: { discount_value: 55 },
      });
      const [created] = await server.db.query<{ id: number; description: string }>(
        `SELECT id, description FROM vouchers WHERE code = 'HOOK0008'`,
      );
      expect(created!.description).toBe('prepared HOOK0008');
      expect(list.find((call) => call.hook === 'afterCreate')!.ids).toEqual([Number(created!.id)]);
    },
  );

  it.skipIf(skip)(
    'a guard that refuses stops the write on every path: nothing is stored, no entry is written',
    async () => {
      const { id, etag } = await createVoucher('HOOK0009');
      const entries = async () =>
        Number(
          (
            await server.db.query<{ count: number }>(
              `SELECT count(*)::int AS count FROM audit_log WHERE module = 'VOUCHER' AND record_id = $1`,
              [id],
            )
          )[0]!.count,
        );
      const before = await entries();
      const refused = await send(
        'PUT',
        `vouchers/${id}`,
        {
          code: 'HOOK0009',
          usage_limit: 99,
          discount_type: 'flat',
          discount_value: 20,
          valid_from: '2026-01-01',
          valid_to: '2026-12-31',
        },
        { 'if-match': etag },
      );
      expect(refused.status).toBe(409);
      const count = Number((await send('GET', 'vouchers?q=HOOK0009')).json().meta.total);
      const bulk = await send('POST', 'vouchers/bulk/set?q=HOOK0009', {
        field: 'usage_limit',
        value: 99,
        expected_count: count,
      });
      expect(bulk.body).toContain('"status":409');
      const [stored] = await server.db.query('SELECT discount_value, usage_limit FROM vouchers WHERE id = $1', [id]);
      expect(stored).toEqual({ discount_value: 10, usage_limit: null });
      expect(await entries()).toBe(before);
    },
  );
});
