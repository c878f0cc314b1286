import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import type { Database } from '../../db/database.ts';
import { MemoryStorage } from '../uploads/storage.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';

const databases = await testDatabases();

/**
 * The per-request session check keeps role permission sets in memory, keyed by the role's grants version that
 * the same query reads. These prove nothing is trusted from memory: logout, permission edits (through the API,
 * on another instance, or straight in SQL), a deactivated role and a changed role all apply on the next request.
 */
describe.each(databases)('permission-set cache on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let other: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    // A second instance on the same database: its own process memory (a distinct cache), the same rows.
    const sameDatabase: Database = { ...server.db };
    other = await buildApp({ config: server.config, db: sameDatabase, storage: new MemoryStorage() });
    await other.ready();
  });
  afterAll(async () => {
    await other?.close();
    await server?.close();
  });

  const list = (app: typeof other, headers: Record<string, string>) =>
    app.inject({ method: 'GET', url: '/api/v1/subscribers', headers }).then((response) => response.statusCode);

  it.skipIf(skip)('a logged-out access token stops working on the next request, on every instance', async () => {
    const { access } = await server.login('Read Only');
    const headers = { authorization: `Bearer ${access}` };
    expect(await list(server.app, headers)).toBe(200);
    expect(await list(other, headers)).toBe(200);
    expect((await server.app.inject({ method: 'POST', url: '/api/v1/logout', headers, payload: {} })).statusCode).toBe(
      200,
    );
    expect(await list(server.app, headers)).toBe(401);
    expect(await list(other, headers)).toBe(401);
  });

  it.skipIf(skip)('a permission edit on one instance applies on the next request on the other', async () => {
    const viewer = await server.auth('Read Only');
    const admin = await server.auth('Super Admin');
    const [role] = await server.db.query<{ id: number }>("SELECT id FROM roles WHERE name = 'Read Only'");
    const read = await server.app.inject({
      method: 'GET',
      url: `/api/v1/roles/${role!.id}/permissions`,
      headers: admin,
    });
    const before = read.json() as { data: Record<string, string[]> };
    expect(await list(other, viewer)).toBe(200);

    const without = { ...before.data };
    delete without.SUBSCRIBERS;
    const put = await server.app.inject({
      method: 'PUT',
      url: `/api/v1/roles/${role!.id}/permissions`,
      headers: { ...admin, 'if-match': read.headers.etag! },
      payload: { permissions: without },
    });
    expect(put.statusCode).toBe(200);
    expect(await list(other, viewer)).toBe(403);
    expect(await list(server.app, viewer)).toBe(403);

    const restored = await server.app.inject({
      method: 'PUT',
      url: `/api/v1/roles/${role!.id}/permissions`,
      headers: { ...admin, 'if-match': put.headers.etag! },
      payload: { permissions: before.data },
    });
    expect(restored.statusCode).toBe(200);
    expect(await list(other, viewer)).toBe(200);
  });

  it.skipIf(skip)(
    'a change made straight in SQL, a deactivated role and a changed role apply on the next request',
    async () => {
      const viewer = await server.auth('Read Only');
      expect(await list(other, viewer)).toBe(200);

      await server.db.query(
        "DELETE FROM role_permissions WHERE module = 'SUBSCRIBERS' AND action = 'view' AND role_id = (SELECT id FROM roles WHERE name = 'Read Only')",
      );
      expect(await list(other, viewer)).toBe(403);
      await server.db.query(
        "INSERT INTO role_permissions (role_id, module, action) SELECT id, 'SUBSCRIBERS', 'view' FROM roles WHERE name = 'Read Only'",
      );
      expect(await list(other, viewer)).toBe(200);

      await server.db.query("UPDATE roles SET is_active = false WHERE name = 'Read Only'");
      expect(await list(other, viewer)).toBe(403);
      await server.db.query("UPDATE roles SET is_active = true WHERE name = 'Read Only'");
      expect(await list(other, viewer)).toBe(200);

      const [viewerUser] = await server.db.query<{ id: number; role_id: number }>(
        "SELECT u.id, u.role_id FROM users u JOIN roles r ON r.id = u.role_id WHERE r.name = 'Read Only' LIMIT 1",
      );
      await server.db.query(
        "UPDATE users SET role_id = (SELECT id FROM roles WHERE name = 'Data Operator') WHERE id = $1",
        [viewerUser!.id],
      );
      expect(await list(other, viewer)).toBe(403);
      await server.db.query('UPDATE users SET role_id = $1 WHERE id = $2', [viewerUser!.role_id, viewerUser!.id]);
      expect(await list(other, viewer)).toBe(200);
    },
  );
});
