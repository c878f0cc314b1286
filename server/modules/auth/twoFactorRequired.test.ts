import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { ENROLMENT_REQUIRED } from './access.ts';
import { totpCode } from './totp.ts';

const databases = await testDatabases();
const STEP = 30_000;
type Headers = Record<string, string>;

describe.each(databases)('a role that requires two-factor sign-in, on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Headers;
  let roleId: number;
  let serial = 0;
  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    admin = await server.auth('Super Admin');
    const role = await call('POST', 'roles', admin, {
      name: 'Two-factor auditors',
      description: 'Must sign in with a second factor.',
      requires_two_factor: true,
    });
    expect(role.status).toBe(201);
    roleId = Number(role.body.data.id);
  });
  afterAll(async () => server?.close());

  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Headers = {}, payload?: object) => {
    const response = await server.app.inject({ method, url: `/api/v1/${url}`, headers, payload });
    return { status: response.statusCode, body: response.json() as any };
  };
  const bearer = (access: string) => ({ authorization: `Bearer ${access}` });
  const login = (email: string, password: string) => call('POST', 'login', {}, { email, password });

  /** A verified user of the requiring role, with no second factor. */
  const newUser = async () => {
    serial += 1;
    const email = `required.${serial}.${kind}@example.com`;
    const password = `Required@${serial}2468`;
    const created = await call('POST', 'users', admin, {
      first_name: 'Rhea',
      last_name: 'Required',
      email,
      mobile: `98764${String(serial).padStart(5, '0')}`,
      role_id: roleId,
      password,
      confirm_password: password,
    });
    expect(created.status).toBe(201);
    const id = Number(created.body.data.id);
    await server.db.query('UPDATE users SET email_verified_at = now() WHERE id = $1', [id]);
    return { id, email, password };
  };

  it.skipIf(skip)('no demo role requires it: the demo accounts sign in with their password alone', async () => {
    const required = await server.db.query(`SELECT name FROM roles WHERE requires_two_factor AND name <> $1`, [
      'Two-factor auditors',
    ]);
    expect(required).toEqual([]);
    const answer = await login('admin@example.com', 'Admin@12345');
    expect(answer.body.data).toEqual({ access: expect.any(String), refresh: expect.any(String) });
  });

  it.skipIf(skip)(
    'after the password, a user without a second factor can only enrol; once enrolled, the same session works and the next sign-in asks for a code',
    async () => {
      const user = await newUser();
      const first = await login(user.email, user.password);
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual({
        access: expect.any(String),
        refresh: expect.any(String),
        enrol_required: true,
        methods: ['totp', 'passkey'],
      });
      const limited = bearer(first.body.data.access);

      // Every other route refuses, whatever the spelling, with the code the console acts on.
      for (const [method, url] of [
        ['GET', 'user/permission'],
        ['GET', 'user/profile'],
        ['GET', 'vouchers'],
        ['GET', 'user/sessions'],
        ['DELETE', 'user/two-factor'],
      ] as const) {
        const refused = await call(method, url, limited, method === 'DELETE' ? { code: '123456' } : undefined);
        expect(refused, `${method} ${url}`).toMatchObject({ status: 403, body: { code: ENROLMENT_REQUIRED } });
      }
      const odd = await server.app.inject({ method: 'GET', url: '/%61pi/v1/user/permission', headers: limited });
      expect(odd.statusCode).toBe(403);
      expect(odd.json()).toMatchObject({ code: ENROLMENT_REQUIRED, message: expect.stringMatching(/two-factor/) });
      // A refreshed pair is as limited.
      const refreshed = await call('POST', 'token/refresh', {}, { refresh: first.body.data.refresh });
      expect(refreshed.status).toBe(200);
      expect((await call('GET', 'user/permission', bearer(refreshed.body.data.access))).status).toBe(403);
      const enrolling = bearer(refreshed.body.data.access);

      // The enrolment routes answer.
      const status = await call('GET', 'user/two-factor', enrolling);
      expect(status.body.data).toMatchObject({ enabled: false, required: true });
      const started = await call('POST', 'user/two-factor/totp', enrolling);
      expect(started.status).toBe(200);
      const confirmed = await call('POST', 'user/two-factor/totp/confirm', enrolling, {
        code: totpCode(started.body.data.secret),
      });
      expect(confirmed.status).toBe(200);

      // Enrolled: the session is a full one now.
      expect((await call('GET', 'user/permission', enrolling)).status).toBe(200);
      expect((await call('GET', 'user/sessions', enrolling)).status).toBe(200);
      const next = await login(user.email, user.password);
      expect(next.body.data).toMatchObject({ mfa_required: true, methods: ['totp', 'recovery_code'] });
      const signedIn = await call(
        'POST',
        'login/two-factor',
        {},
        {
          mfa_token: next.body.data.mfa_token,
          code: totpCode(started.body.data.secret, Date.now() + STEP),
        },
      );
      expect(signedIn.body.data).toEqual({ access: expect.any(String), refresh: expect.any(String) });
      expect((await call('GET', 'user/sessions', bearer(signedIn.body.data.access))).status).toBe(200);

      // The only second factor of a user whose role requires one cannot be turned off; the app stays on.
      const off = await call('DELETE', 'user/two-factor', enrolling, { code: confirmed.body.data.recovery_codes[0] });
      expect(off).toMatchObject({ status: 409, body: { message: expect.stringMatching(/role requires/) } });
      expect((await call('GET', 'user/two-factor', enrolling)).body.data.enabled).toBe(true);
      const outcomes = await server.db.query<{ outcome: string }>(
        'SELECT outcome FROM sign_ins WHERE user_id = $1 ORDER BY id',
        [user.id],
      );
      expect(outcomes.map((row) => row.outcome)).toEqual(['success', 'success']);
    },
  );

  it.skipIf(skip)(
    "requiring it of a role limits its users' live sessions at their next request; an administrator's reset sends them back to enrol",
    async () => {
      const [readOnly] = await server.db.query<{ id: number }>(`SELECT id FROM roles WHERE name = 'Read Only'`);
      const user = await newUser();
      await server.db.query('UPDATE users SET role_id = $2 WHERE id = $1', [user.id, readOnly!.id]);
      const pair = (await login(user.email, user.password)).body.data;
      expect(pair.enrol_required).toBeUndefined();
      expect((await call('GET', 'user/permission', bearer(pair.access))).status).toBe(200);
      await server.db.query('UPDATE users SET role_id = $2 WHERE id = $1', [user.id, roleId]);
      const refused = await call('GET', 'user/permission', bearer(pair.access));
      expect(refused).toMatchObject({ status: 403, body: { code: ENROLMENT_REQUIRED } });
      // Without a token the enrolment routes are as closed as any other.
      expect((await call('GET', 'user/two-factor')).status).toBe(401);
      expect((await call('POST', 'user/two-factor/totp')).status).toBe(401);

      const started = await call('POST', 'user/two-factor/totp', bearer(pair.access));
      await call('POST', 'user/two-factor/totp/confirm', bearer(pair.access), {
        code: totpCode(started.body.data.secret),
      });
      expect((await call('DELETE', `users/${user.id}/two-factor`, admin)).status).toBe(200);
      expect((await login(user.email, user.password)).body.data.enrol_required).toBe(true);
    },
  );
});
