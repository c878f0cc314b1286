import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, verifyByEmailedLink, type TestServer } from '../../testing/testServer.ts';
import { LAST_FULL_ACCESS_MESSAGE, keepingFullAccess } from './fullAccess.ts';

const databases = await testDatabases();
type Answer = { data: Record<string, unknown> & { id: number }; message?: string; errors?: Record<string, string> };
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const PASSWORD = 'Manager@12345';

describe.each(databases)('no lockout on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let manager: Record<string, string>;
  let adminId: number;
  let viewerId: number;
  let superAdminRole: number;
  let managerRole: number;
  // Changes are made at whatever version the record has ("*"): what is tested here is the lockout, not the version.
  const call = async (method: Method, url: string, payload?: unknown, headers = admin) => {
    const versioned = method === 'GET' || method === 'POST' ? headers : { 'if-match': '*', ...headers };
    const response = await server.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: versioned,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: response.statusCode, body: response.json() as Answer };
  };
  const userRow = async (id: number) =>
    (
      await server.db.query<{ is_active: boolean; role_id: number }>(
        'SELECT is_active, role_id FROM users WHERE id = $1',
        [id],
      )
    )[0];
  const createUser = async (email: string, roleId: number) => {
    const created = await call('POST', 'users', {
      first_name: 'Test',
      last_name: 'User',
      email,
      mobile: '9876543210',
      role_id: roleId,
      password: PASSWORD,
      confirm_password: PASSWORD,
    });
    expect(created.status).toBe(201);
    await verifyByEmailedLink(server, email);
    return created.body.data.id;
  };
  const signIn = async (email: string) => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { email, password: PASSWORD },
    });
    return { authorization: `Bearer ${(response.json() as { data: { access: string } }).data.access}` };
  };

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    admin = await server.auth('Super Admin');
    adminId = server.userIds.get('admin@example.com')!;
    viewerId = server.userIds.get('viewer@example.com')!;
    const roles = await server.db.query<{ id: number; name: string }>('SELECT id, name FROM roles');
    superAdminRole = roles.find((role) => role.name === 'Super Admin')!.id;
    // A user manager: every action on users and roles, but not full access.
    managerRole = (await call('POST', 'roles', { name: 'User Manager' })).body.data.id;
    const actions = ['view', 'add', 'edit', 'delete', 'ACTIVE_INACTIVE', 'view_detail'];
    expect(
      (await call('PUT', `roles/${managerRole}/permissions`, { permissions: { USERS: actions, ROLES: actions } }))
        .status,
    ).toBe(200);
    await createUser('manager@example.com', managerRole);
    manager = await signIn('manager@example.com');
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)('a user cannot deactivate, delete or demote themselves, alone or in a bulk change', async () => {
    const refusals: Array<[Method, string, unknown, number, string]> = [
      ['PATCH', `users/${adminId}/status`, { is_active: false }, 409, 'You cannot deactivate your own account.'],
      [
        'PATCH',
        'users/status',
        { ids: [viewerId, adminId], is_active: false },
        409,
        'You cannot deactivate your own account.',
      ],
      ['DELETE', `users/${adminId}`, undefined, 409, 'You cannot delete your own account.'],
      ['DELETE', 'users', { ids: [viewerId, adminId] }, 409, 'You cannot delete your own account.'],
    ];
    for (const [method, url, payload, status, message] of refusals) {
      const answer = await call(method, url, payload);
      expect(answer.status, `${method} ${url}`).toBe(status);
      expect(answer.body.message).toBe(message);
    }
    const own = (await call('GET', `users/${adminId}`)).body.data;
    const edit = { first_name: own.first_name, last_name: own.last_name, email: own.email, mobile: own.mobile };
    const demoted = await call('PUT', `users/${adminId}`, { ...edit, role_id: managerRole });
    expect(demoted.status).toBe(400);
    expect(demoted.body.errors).toEqual({ role_id: 'You cannot change your own role.' });
    expect(await userRow(adminId)).toEqual({ is_active: true, role_id: superAdminRole });
    expect(await userRow(viewerId)).toMatchObject({ is_active: true });
    // Editing oneself without changing the role, and activating oneself, stay allowed.
    expect(
      (await call('PUT', `users/${adminId}`, { ...edit, role_id: superAdminRole, first_name: 'Asha' })).status,
    ).toBe(200);
    expect((await call('PATCH', `users/${adminId}/status`, { is_active: true })).status).toBe(200);
  });

  it.skipIf(skip)(
    'the last active user with full access cannot be deactivated, deleted or demoted by anyone, nor their role stripped',
    async () => {
      const own = (await call('GET', `users/${adminId}`)).body.data;
      const refusals: Array<[Method, string, unknown]> = [
        ['PATCH', `users/${adminId}/status`, { is_active: false }],
        ['PATCH', 'users/status', { ids: [viewerId, adminId], is_active: false }],
        ['DELETE', `users/${adminId}`, undefined],
        ['DELETE', 'users', { ids: [viewerId, adminId] }],
        [
          'PUT',
          `users/${adminId}`,
          {
            first_name: own.first_name,
            last_name: own.last_name,
            email: own.email,
            mobile: own.mobile,
            role_id: managerRole,
          },
        ],
        ['PATCH', `roles/${superAdminRole}/status`, { is_active: false }],
        ['PATCH', 'roles/status', { ids: [managerRole, superAdminRole], is_active: false }],
      ];
      for (const [method, url, payload] of refusals) {
        const answer = await call(method, url, payload, manager);
        expect(answer.status, `${method} ${url}`).toBe(409);
        expect(answer.body.message).toBe(LAST_FULL_ACCESS_MESSAGE);
      }
      const permissions = (await call('GET', `roles/${superAdminRole}/permissions`)).body.data as unknown as Record<
        string,
        string[]
      >;
      const { USERS: _users, ...withoutUsers } = permissions;
      const stripped = await call('PUT', `roles/${superAdminRole}/permissions`, { permissions: withoutUsers }, admin);
      expect(stripped.status).toBe(409);
      expect(stripped.body.message).toBe(LAST_FULL_ACCESS_MESSAGE);
      expect((await call('GET', `roles/${superAdminRole}/permissions`)).body.data).toEqual(permissions);
      expect(await userRow(adminId)).toEqual({ is_active: true, role_id: superAdminRole });
      expect(await userRow(viewerId)).toMatchObject({ is_active: true });
      expect(
        (await server.db.query<{ is_active: boolean }>('SELECT is_active FROM roles WHERE id = $1', [managerRole]))[0]!
          .is_active,
      ).toBe(true);
      // Other users and roles are changed as before.
      expect((await call('PATCH', `users/${viewerId}/status`, { is_active: false }, manager)).status).toBe(200);
      expect((await call('PATCH', `users/${viewerId}/status`, { is_active: true }, manager)).status).toBe(200);
    },
  );

  it.skipIf(skip)(
    'with a second administrator one may go; of two changes racing to remove both, the second waits and is refused',
    async () => {
      const second = await createUser('second.admin@example.com', superAdminRole);
      const third = await createUser('third.admin@example.com', superAdminRole);
      expect((await call('PATCH', `users/${third}/status`, { is_active: false }, manager)).status).toBe(200);

      // The first change holds its transaction open after its check; the second starts meanwhile.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let checked!: () => void;
      const firstChecked = new Promise<void>((resolve) => (checked = resolve));
      const first = server.db.transaction(async (tx) => {
        await keepingFullAccess(tx, () => tx.query('UPDATE users SET is_active = false WHERE id = $1', [adminId]));
        checked();
        await held;
      });
      await firstChecked;
      const outcome = server.db
        .transaction((tx) => keepingFullAccess(tx, () => tx.query('DELETE FROM users WHERE id = $1', [second])))
        .then(
          () => 'passed',
          (error: unknown) => (error as Error).message,
        );
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      await first;
      expect(await outcome).toBe(LAST_FULL_ACCESS_MESSAGE);
      expect(await userRow(adminId)).toMatchObject({ is_active: false });
      expect(await userRow(second)).toMatchObject({ is_active: true });
    },
  );
});
