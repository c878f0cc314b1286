import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTITY_RESOURCES, MODULE, RESOURCES } from '../../registry.ts';
import { HOME_PATH } from '../../../contract/home.ts';
import { SEED_ROLES, upsertRole, upsertUser } from '../../seed/roles.ts';
import { startTestServer, testDatabases, tokenClaims, type TestServer } from '../../testing/testServer.ts';

const databases = await testDatabases();
const MISSING = 999_999;

/** One request per generic action that reaches the permission check; what follows it does not matter here. */
function requestFor(
  api: string,
  action: string,
): { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; payload?: object } | null {
  const base = `/api/v1/${api}`;
  switch (action) {
    case 'view':
      return { method: 'GET', url: base };
    case 'add':
      return { method: 'POST', url: base, payload: {} };
    case 'edit':
      return { method: 'PUT', url: `${base}/${MISSING}`, payload: {} };
    case 'delete':
      return { method: 'DELETE', url: `${base}/${MISSING}` };
    case 'ACTIVE_INACTIVE':
      return { method: 'PATCH', url: `${base}/${MISSING}/status`, payload: { is_active: false } };
    case 'download':
      return { method: 'GET', url: `${base}/export` };
    case 'verify':
      // An upload is verified by publishing (or rejecting) it after its review; the generic verify is not its route.
      return api === 'uploads'
        ? { method: 'POST', url: `${base}/${MISSING}/publish`, payload: { reason: 'The permission matrix.' } }
        : { method: 'POST', url: `${base}/${MISSING}/verify` };
    case 'SUBSCRIBER_DETAIL':
      return { method: 'GET', url: `${base}/${MISSING}/summary` };
    case 'ADD_SUBSCRIPTION':
      return { method: 'POST', url: `${base}/${MISSING}/subscriptions`, payload: {} };
    case 'ADD_TOP_UP':
      return { method: 'POST', url: `${base}/${MISSING}/top-ups`, payload: {} };
    default:
      return null;
  }
}

const MATRIX = ENTITY_RESOURCES.flatMap((resource) =>
  resource.actions.flatMap((action) => {
    const request = requestFor(resource.api, action);
    return request ? [{ module: resource.key, action, request, offered: resource.actions }] : [];
  }),
);

describe.each(databases)('permissions on $kind', ({ kind, skip }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (!skip) server = await startTestServer(kind);
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)(
    'PERM-01 GET user/permission: data keyed by module, each with order and actions of {is_routable, route_url}',
    async () => {
      const response = await server.app.inject({
        method: 'GET',
        url: '/api/v1/user/permission',
        headers: await server.auth('Data Operator'),
      });
      expect(response.statusCode).toBe(200);
      const { data } = response.json() as {
        data: Record<string, { order: number; actions: Record<string, { is_routable: boolean; route_url: string }> }>;
      };
      expect(Object.keys(data).sort()).toContain(MODULE.dataUploadLogs);
      expect(data).not.toHaveProperty(MODULE.users);
      for (const module of Object.values(data)) {
        expect(typeof module.order).toBe('number');
        for (const action of Object.values(module.actions)) {
          expect(typeof action.is_routable).toBe('boolean');
          expect(action.route_url).toMatch(/^\//);
        }
      }
      const uploads = RESOURCES.find((resource) => resource.key === MODULE.dataUploadLogs)!;
      expect(data[MODULE.dataUploadLogs]!.actions.view).toEqual({
        is_routable: true,
        route_url: uploads.routes.view!.path,
      });
      expect(data[MODULE.dataUploadLogs]!.order).toBe(uploads.moduleOrder);
      // The area of a permitted resource is listed too, so its sidebar entry shows (SIDEBAR-03).
      expect(data).toHaveProperty(uploads.areaKey);
    },
  );

  it.skipIf(skip)(
    'the permission matrix: every resource action is allowed exactly for the seeded roles that grant it',
    async () => {
      const failures: string[] = [];
      for (const role of SEED_ROLES) {
        const headers = await server.auth(role.name);
        for (const { module, action, request, offered } of MATRIX) {
          const granted = role.permissions(module, offered).includes(action);
          const response = await server.app.inject({ ...request, headers });
          const denied = response.statusCode === 403;
          if (granted === denied || response.statusCode === 401 || response.statusCode >= 500) {
            failures.push(
              `${role.name} ${module}:${action} ${request.method} ${request.url} -> ${response.statusCode} (granted: ${granted})`,
            );
          }
        }
      }
      expect(failures).toEqual([]);
      expect(MATRIX.length).toBeGreaterThan(100);
    },
  );

  it.skipIf(skip)(
    'a role permission set edited through ROLES takes effect on the next permission load and on the routes',
    async () => {
      const admin = await server.auth('Super Admin');
      const viewer = await server.auth('Read Only');
      const roleId = Number(
        (await server.db.query<{ id: number }>(`SELECT id FROM roles WHERE name = 'Read Only'`))[0]!.id,
      );
      expect(
        (await server.app.inject({ method: 'POST', url: '/api/v1/vouchers', headers: viewer, payload: {} })).statusCode,
      ).toBe(403);
      const before = await server.app.inject({
        method: 'GET',
        url: `/api/v1/roles/${roleId}/permissions`,
        headers: admin,
      });
      const saved = await server.app.inject({
        method: 'PUT',
        url: `/api/v1/roles/${roleId}/permissions`,
        headers: { ...admin, 'if-match': before.headers.etag! },
        payload: { permissions: { VOUCHER: ['view', 'add'], USER_PROFILE: ['view'] } },
      });
      expect(saved.statusCode).toBe(200);
      const read = await server.app.inject({
        method: 'GET',
        url: `/api/v1/roles/${roleId}/permissions`,
        headers: admin,
      });
      expect((read.json() as { data: Record<string, string[]> }).data).toEqual({
        USER_PROFILE: ['view'],
        VOUCHER: ['add', 'view'],
      });
      const permissions = await server.app.inject({ method: 'GET', url: '/api/v1/user/permission', headers: viewer });
      const data = (permissions.json() as { data: Record<string, { actions: Record<string, unknown> }> }).data;
      expect(Object.keys(data.VOUCHER!.actions).sort()).toEqual(['add', 'view']);
      expect(data).not.toHaveProperty('COUNTRIES');
      expect(
        (await server.app.inject({ method: 'POST', url: '/api/v1/vouchers', headers: viewer, payload: {} })).statusCode,
      ).toBe(400);
      expect((await server.app.inject({ method: 'GET', url: '/api/v1/countries', headers: viewer })).statusCode).toBe(
        403,
      );
    },
  );

  it.skipIf(skip)(
    'a permission set is saved only at the role version it was read at: 428 without If-Match, 412 when stale, and two saved together both apply',
    async () => {
      const admin = await server.auth('Super Admin');
      const roleIds = (
        await server.db.query<{ id: number }>(
          `SELECT id FROM roles WHERE name IN ('Read Only', 'Data Operator') ORDER BY id`,
        )
      ).map((row) => Number(row.id));
      const read = async (id: number) => {
        const response = await server.app.inject({
          method: 'GET',
          url: `/api/v1/roles/${id}/permissions`,
          headers: admin,
        });
        return {
          etag: response.headers.etag as string,
          data: (response.json() as { data: Record<string, string[]> }).data,
        };
      };
      const save = (id: number, permissions: Record<string, string[]>, ifMatch?: string) =>
        server.app.inject({
          method: 'PUT',
          url: `/api/v1/roles/${id}/permissions`,
          headers: { ...admin, ...(ifMatch ? { 'if-match': ifMatch } : {}) },
          payload: { permissions },
        });
      const [first, second] = roleIds as [number, number];
      const opened = await read(first);
      expect(opened.etag).toMatch(/^"\d+"$/);
      // The role record and its permission set share one version.
      expect(
        (await server.app.inject({ method: 'GET', url: `/api/v1/roles/${first}`, headers: admin })).headers.etag,
      ).toBe(opened.etag);

      const missing = await save(first, { VOUCHER: ['view'] });
      expect(missing.statusCode).toBe(428);
      expect((missing.json() as { message: string }).message).toMatch(/If-Match header/);
      const savedOnce = await save(first, { VOUCHER: ['view'] }, opened.etag);
      expect(savedOnce.statusCode).toBe(200);
      expect(savedOnce.headers.etag).not.toBe(opened.etag);
      const stale = await save(first, { VOUCHER: ['view', 'add'] }, opened.etag);
      expect(stale.statusCode).toBe(412);
      expect((stale.json() as { message: string }).message).toMatch(
        /^This role was changed by someone else since you opened it\./,
      );
      expect((await read(first)).data).toEqual({ VOUCHER: ['view'] });

      // Saving one role's permissions leaves every other role as it was: someone editing another role is not refused.
      const otherBefore = await read(second);
      expect((await save(first, { VOUCHER: ['view', 'add'] }, (await read(first)).etag)).statusCode).toBe(200);
      expect((await read(second)).etag).toBe(otherBefore.etag);

      // Two matrices of different roles saved at once (each at its current version) both apply.
      const [a, b] = await Promise.all([read(first), read(second)]);
      const together = await Promise.all([
        save(first, { VOUCHER: ['view', 'download'] }, a.etag),
        save(second, { COUNTRIES: ['view'] }, b.etag),
      ]);
      expect(together.map((response) => response.statusCode)).toEqual([200, 200]);
      expect((await read(first)).data).toEqual({ VOUCHER: ['download', 'view'] });
      expect((await read(second)).data).toEqual({ COUNTRIES: ['view'] });
    },
  );

  it.skipIf(skip)('role permission sets only take known modules and actions', async () => {
    const admin = await server.auth('Super Admin');
    const bad = await server.app.inject({
      method: 'PUT',
      url: '/api/v1/roles/1/permissions',
      headers: admin,
      payload: { permissions: { NOT_A_MODULE: ['view'], VOUCHER: ['fly'] } },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys((bad.json() as { errors: Record<string, string> }).errors)).toEqual(
      expect.arrayContaining(['permissions.NOT_A_MODULE']),
    );
    expect(
      (
        await server.app.inject({
          method: 'PUT',
          url: '/api/v1/roles/1/permissions',
          headers: await server.auth('Data Operator'),
          payload: { permissions: {} },
        })
      ).statusCode,
    ).toBe(403);
  });

  it.skipIf(skip)(
    'ROUTE-15 the access token default_url is the home screen for a role with a card on it, else the first routable path of the role',
    async () => {
      expect(tokenClaims((await server.login('Sales Executive')).access).default_url).toBe(HOME_PATH);
      const plansOnly = {
        name: 'Plans Reader',
        description: 'Only the plans',
        permissions: (module: string) => (module === MODULE.subscriptionPlans ? ['view'] : []),
      };
      const roleId = await upsertRole(server.db, plansOnly);
      const reader = {
        email: 'plans-reader@example.com',
        password: 'Plans@12345',
        firstName: 'Plan',
        lastName: 'Reader',
        role: plansOnly.name,
      };
      await upsertUser(server.db, server.app.passwords, reader, roleId);
      const login = await server.app.inject({
        method: 'POST',
        url: '/api/v1/login',
        payload: { email: reader.email, password: reader.password },
      });
      const first = [...RESOURCES]
        .sort((a, b) => a.moduleOrder - b.moduleOrder)
        .find((resource) => resource.routes.view?.routable && plansOnly.permissions(resource.key).includes('view'));
      expect(tokenClaims((login.json() as { data: { access: string } }).data.access).default_url).toBe(
        first!.routes.view!.path,
      );
      expect(first!.key).toBe(MODULE.subscriptionPlans);
    },
  );
});
