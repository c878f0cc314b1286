import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, HTTPMethods, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { concrete, spellings } from '../../testing/pathSpellings.ts';
import type { Access } from './access.ts';

const databases = await testDatabases();
/** An assertion no authenticator made: the shape the routes take, with nothing a server would accept. */
const MADE_UP_PASSKEY = {
  id: 'bWFkZS11cA',
  rawId: 'bWFkZS11cA',
  type: 'public-key',
  response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
};

interface RegisteredRoute {
  method: HTTPMethods;
  url: string;
  access: Access | undefined;
}

/** The built console, with a source map beside its script. */
async function consoleFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'console-dist-'));
  await mkdir(join(folder, 'assets'));
  await writeFile(join(folder, 'index.html'), '<!doctype html><title>Console</title><div id="root"></div>');
  await writeFile(join(folder, 'assets', 'app.js'), 'console.log(1);\n//# sourceMappingURL=app.js.map');
  await writeFile(join(folder, 'assets', 'app.js.map'), '{"version":3,"sources":["secret-source.ts"]}');
  return folder;
}

describe.each(databases)(
  'every route checks its own access rule, however its path is spelled, on $kind',
  ({ kind, skip }) => {
    let server: TestServer;
    let app: FastifyInstance;
    let folder: string;
    const routes: RegisteredRoute[] = [];

    beforeAll(async () => {
      if (skip) return;
      server = await startTestServer(kind);
      folder = await consoleFolder();
      const onRoute = (route: RouteOptions) => {
        for (const method of [route.method].flat())
          routes.push({ method, url: route.url, access: route.config?.access });
      };
      app = await buildApp({
        config: server.config,
        db: server.db,
        storage: server.storage,
        consoleDir: folder,
        onRoute,
      });
      // A route that states no rule, as a future endpoint might: it must be refused to everyone.
      app.get('/api/v1/without-a-rule', async () => ({ data: 'reached' }));
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
      await server?.close();
      if (folder) await rm(folder, { recursive: true, force: true });
    });

    it.skipIf(skip)(
      'no spelling of a guarded route reaches its handler without a token: 401 or 404, for every route',
      async () => {
        // Development routes answer anyone on a server not in production; the production walk below refuses them.
        const guarded = routes.filter(
          (route) => route.access !== 'public' && route.access !== 'development' && route.url.startsWith('/api/'),
        );
        expect(guarded.length).toBeGreaterThan(250);
        const reached: string[] = [];
        for (const route of guarded) {
          for (const url of spellings(concrete(route.url))) {
            const response = await app.inject({
              method: route.method,
              url,
              ...(['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method) ? { payload: {} } : {}),
            });
            if (
              ![401, 403, 404].includes(response.statusCode) ||
              (response.statusCode === 403 && route.access !== undefined)
            ) {
              reached.push(
                `${route.method} ${url} (route ${route.url}): ${response.statusCode} ${response.body.slice(0, 80)}`,
              );
            }
          }
        }
        expect(reached).toEqual([]);
      },
    );

    it.skipIf(skip)(
      'the encoded spelling that once skipped the check cannot rewrite a role or export trade data',
      async () => {
        for (const url of [
          '/%61pi/v1/roles/2/permissions',
          '/a%70i/v1/roles/2/permissions',
          '/%41PI/v1/roles/2/permissions',
        ]) {
          const response = await app.inject({
            method: 'PUT',
            url,
            payload: { permissions: { ROLES: ['view', 'edit'] } },
          });
          expect([401, 404], url).toContain(response.statusCode);
        }
        const exported = await app.inject({ method: 'GET', url: '/%61pi/v1/uploaded-data-report/export' });
        expect([401, 404]).toContain(exported.statusCode);
        expect(exported.body).not.toContain(',');
        const [permissions] = await server.db.query<{ count: number }>(
          `SELECT count(*)::int AS count FROM role_permissions WHERE role_id = 2 AND module = 'ROLES'`,
        );
        expect(permissions!.count).toBe(0);
      },
    );

    it.skipIf(skip)(
      'with a token, an odd spelling gets exactly what the plain path gets: the wrong role is refused, the right one served',
      async () => {
        const sales = await server.auth('Sales Executive');
        const admin = await server.auth('Super Admin');
        const refused = await app.inject({ method: 'GET', url: '/%61pi/v1/roles/1/permissions', headers: sales });
        expect(refused.statusCode).toBe(403);
        const served = await app.inject({ method: 'GET', url: '/%61pi/v1/roles/1/permissions', headers: admin });
        expect(served.statusCode).toBe(200);
        expect(served.json()).toMatchObject({ data: { ROLES: expect.arrayContaining(['view']) } });
      },
    );

    it.skipIf(skip)(
      'with NODE_ENV=production a development route answers as no route, in every spelling and even to a Super Admin',
      async () => {
        const development = routes.filter((route) => route.access === 'development');
        expect(development.map((route) => `${route.method} ${route.url}`)).toContain('GET /api/v1/dev/mailbox');
        const production = await buildApp({
          config: { ...server.config, production: true },
          db: server.db,
          storage: server.storage,
          consoleDir: folder,
        });
        try {
          const admin = await server.auth('Super Admin');
          const answered: string[] = [];
          for (const route of development) {
            for (const url of spellings(concrete(route.url))) {
              for (const headers of [{}, admin]) {
                const response = await production.inject({ method: route.method, url, headers });
                if (response.statusCode !== 404 || response.body.includes('"data"'))
                  answered.push(`${route.method} ${url}: ${response.statusCode} ${response.body.slice(0, 80)}`);
              }
            }
          }
          expect(answered).toEqual([]);
          const refused = await production.inject({ method: 'GET', url: '/api/v1/dev/mailbox' });
          expect(refused.json()).toEqual({ message: 'No such endpoint: GET /api/v1/dev/mailbox' });
          // The same route on a development server answers.
          expect((await app.inject({ method: 'GET', url: '/api/v1/dev/mailbox' })).statusCode).toBe(200);
        } finally {
          await production.close();
        }
      },
    );

    it.skipIf(skip)(
      'two-factor and passkey routes: walked above; an odd spelling of the reset refuses a role without USERS edit, and no passkey or second step signs in with made-up credentials',
      async () => {
        const walked = routes.map((route) => `${route.method} ${route.url}`);
        for (const route of [
          'GET /api/v1/user/two-factor',
          'POST /api/v1/user/two-factor/totp',
          'POST /api/v1/user/two-factor/totp/confirm',
          'DELETE /api/v1/user/two-factor',
          'POST /api/v1/user/two-factor/recovery-codes',
          'GET /api/v1/users/:id/two-factor',
          'DELETE /api/v1/users/:id/two-factor',
          'POST /api/v1/login/two-factor',
          'GET /api/v1/user/passkeys',
          'POST /api/v1/user/passkeys/registration-options',
          'POST /api/v1/user/passkeys',
          'PATCH /api/v1/user/passkeys/:id',
          'DELETE /api/v1/user/passkeys/:id',
          'POST /api/v1/login/passkey',
          'POST /api/v1/login/two-factor/passkey',
        ])
          expect(walked).toContain(route);
        const sales = await server.auth('Sales Executive');
        const admin = await server.auth('Super Admin');
        for (const url of spellings('/api/v1/users/1/two-factor')) {
          const refused = await app.inject({ method: 'DELETE', url, headers: sales });
          expect([403, 404], url).toContain(refused.statusCode);
        }
        // The plain path and an odd spelling reach the handler alike for an administrator: no second factor to reset.
        for (const url of ['/api/v1/users/1/two-factor', '/%61pi/v1/users/1/two-factor']) {
          const served = await app.inject({ method: 'DELETE', url, headers: admin });
          expect(served.statusCode, url).toBe(409);
        }
        for (const [path, payload] of [
          ['/api/v1/login/two-factor', { mfa_token: 'made-up', code: '123456' }],
          ['/api/v1/login/two-factor/passkey', { mfa_token: 'made-up', response: MADE_UP_PASSKEY }],
          ['/api/v1/login/passkey', { response: MADE_UP_PASSKEY }],
        ] as const) {
          for (const url of spellings(path)) {
            const response = await app.inject({ method: 'POST', url, payload });
            expect([401, 404], url).toContain(response.statusCode);
            expect(response.body).not.toContain('access');
          }
        }
      },
    );

    it.skipIf(skip)('a route registered without an access rule is refused, even to a Super Admin', async () => {
      const admin = await server.auth('Super Admin');
      for (const headers of [{}, admin]) {
        const response = await app.inject({ method: 'GET', url: '/api/v1/without-a-rule', headers });
        expect(response.statusCode).toBe(403);
        expect(response.body).not.toContain('reached');
      }
    });

    it.skipIf(skip)(
      'the console files are public, an unknown API path in any spelling is a JSON 404, and source maps are not served',
      async () => {
        expect((await app.inject({ method: 'GET', url: '/' })).body).toContain('<title>Console</title>');
        expect((await app.inject({ method: 'GET', url: '/assets/app.js' })).statusCode).toBe(200);
        expect((await app.inject({ method: 'GET', url: '/voucher-management/vouchers' })).body).toContain(
          '<title>Console</title>',
        );
        const map = await app.inject({ method: 'GET', url: '/assets/app.js.map' });
        expect(map.statusCode).toBe(404);
        expect(map.body).not.toContain('secret-source');
        for (const url of [
          '/api/v1/no-such-thing',
          '/%61pi/v1/no-such-thing',
          '//api/v1/no-such-thing',
          '/API/v1/no-such-thing',
          '/api%2Fv1/no-such-thing',
        ]) {
          const response = await app.inject({ method: 'GET', url });
          expect(response.statusCode, url).toBe(404);
          expect(response.headers['content-type'], url).toContain('application/json');
        }
      },
    );

    it.skipIf(skip)('source maps are served when asked for (SERVE_SOURCE_MAPS=true)', async () => {
      const withMaps = await buildApp({
        config: { ...server.config, serveSourceMaps: true },
        db: server.db,
        storage: server.storage,
        consoleDir: folder,
      });
      try {
        const map = await withMaps.inject({ method: 'GET', url: '/assets/app.js.map' });
        expect(map.statusCode).toBe(200);
        expect(map.body).toContain('secret-source');
      } finally {
        await withMaps.close();
      }
    });

    it.skipIf(skip)(
      'sign-in and refresh answers, and every other API answer, are never stored by a cache',
      async () => {
        const login = await app.inject({
          method: 'POST',
          url: '/api/v1/login',
          payload: { email: 'admin@example.com', password: 'Admin@12345' },
        });
        expect(login.statusCode).toBe(200);
        expect(login.headers['cache-control']).toBe('no-store');
        const { refresh } = (login.json() as { data: { refresh: string } }).data;
        const refreshed = await app.inject({ method: 'POST', url: '/api/v1/token/refresh', payload: { refresh } });
        expect(refreshed.statusCode).toBe(200);
        expect(refreshed.headers['cache-control']).toBe('no-store');
        const refused = await app.inject({ method: 'GET', url: '/api/v1/vouchers' });
        expect(refused.statusCode).toBe(401);
        expect(refused.headers['cache-control']).toBe('no-store');
      },
    );
  },
);
