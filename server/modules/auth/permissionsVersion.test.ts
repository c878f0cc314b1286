import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS_VERSION_HEADER } from '../../../contract/headers.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';

const databases = await testDatabases();

/**
 * Every signed-in answer names the version of the caller's permissions, so the console can tell that an administrator
 * changed them while the user is signed in: it moves with the role's permission set, the role's state and the user's
 * role, and with nothing else.
 */
describe.each(databases)('the permissions version of each answer on $kind', ({ kind, skip }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (!skip) server = await startTestServer(kind);
  });
  afterAll(async () => server?.close());

  const versionOf = async (headers: Record<string, string>, url = '/api/v1/user/permission') => {
    const response = await server.app.inject({ method: 'GET', url, headers });
    return { status: response.statusCode, version: response.headers[PERMISSIONS_VERSION_HEADER] as string | undefined };
  };

  it.skipIf(skip)(
    'a signed-in answer carries it, a refused one too, and an answer to nobody in particular does not',
    async () => {
      const sales = await server.auth('Sales Executive');
      const allowed = await versionOf(sales);
      expect(allowed.status).toBe(200);
      expect(allowed.version).toMatch(/^\d+\.\d+$/);
      const forbidden = await versionOf(sales, '/api/v1/vouchers');
      expect(forbidden.status).toBe(403);
      expect(forbidden.version).toBe(allowed.version);
      expect((await versionOf({})).version).toBeUndefined();
      expect((await versionOf({ authorization: 'Bearer not-a-token' })).version).toBeUndefined();
      const login = await server.app.inject({
        method: 'POST',
        url: '/api/v1/login',
        payload: { email: 'nobody@example.com', password: 'Nobody@12345' },
      });
      expect(login.headers[PERMISSIONS_VERSION_HEADER]).toBeUndefined();
    },
  );

  it.skipIf(skip)(
    "it moves when the user's role gets other permissions, is switched off, or is another role, and not for others' changes",
    async () => {
      const admin = await server.auth('Super Admin');
      const viewer = await server.auth('Read Only');
      const operator = await server.auth('Data Operator');
      const [viewerRole] = await server.db.query<{ id: number }>("SELECT id FROM roles WHERE name = 'Read Only'");
      const start = { viewer: (await versionOf(viewer)).version, operator: (await versionOf(operator)).version };

      const read = await server.app.inject({
        method: 'GET',
        url: `/api/v1/roles/${viewerRole!.id}/permissions`,
        headers: admin,
      });
      const permissions = (read.json() as { data: Record<string, string[]> }).data;
      const { VOUCHER: _voucher, ...withoutVouchers } = permissions;
      const saved = await server.app.inject({
        method: 'PUT',
        url: `/api/v1/roles/${viewerRole!.id}/permissions`,
        headers: { ...admin, 'if-match': read.headers.etag! },
        payload: { permissions: withoutVouchers },
      });
      expect(saved.statusCode).toBe(200);
      const afterEdit = (await versionOf(viewer)).version;
      expect(afterEdit).not.toBe(start.viewer);
      expect((await versionOf(operator)).version).toBe(start.operator);

      await server.db.query('UPDATE roles SET is_active = false WHERE id = $1', [viewerRole!.id]);
      const switchedOff = await versionOf(viewer);
      expect(switchedOff.version).not.toBe(afterEdit);
      await server.db.query('UPDATE roles SET is_active = true WHERE id = $1', [viewerRole!.id]);
      expect((await versionOf(viewer)).version).toBe(afterEdit);

      const [viewerUser] = await server.db.query<{ id: number }>('SELECT id FROM users WHERE role_id = $1 LIMIT 1', [
        viewerRole!.id,
      ]);
      await server.db.query(
        "UPDATE users SET role_id = (SELECT id FROM roles WHERE name = 'Data Operator') WHERE id = $1",
        [viewerUser!.id],
      );
      expect((await versionOf(viewer)).version).toBe(start.operator);
      await server.db.query('UPDATE users SET role_id = $1 WHERE id = $2', [viewerRole!.id, viewerUser!.id]);
      expect((await versionOf(viewer)).version).toBe(afterEdit);
    },
  );
});
