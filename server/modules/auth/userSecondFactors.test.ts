import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spellings } from '../../testing/pathSpellings.ts';
import { SoftwareAuthenticator } from '../../testing/softwareAuthenticator.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { ENROLMENT_REQUIRED } from './access.ts';
import { relyingParty } from './passkeys.ts';
import { totpCode } from './totp.ts';

const databases = await testDatabases();
type Headers = Record<string, string>;

describe.each(databases)("an administrator's side of a user's second factors, on $kind", ({ kind, skip }) => {
  let server: TestServer;
  let admin: Headers;
  let origin: string;
  let serial = 0;
  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    admin = await server.auth('Super Admin');
    origin = relyingParty(server.app).origin;
  });
  afterAll(async () => server?.close());

  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Headers = {}, payload?: object) => {
    const response = await server.app.inject({ method, url: `/api/v1/${url}`, headers, payload });
    return { status: response.statusCode, body: response.json() as any };
  };
  const bearer = (access: string) => ({ authorization: `Bearer ${access}` });
  const roleId = async (name: string) =>
    (await server.db.query<{ id: number }>('SELECT id FROM roles WHERE name = $1', [name]))[0]!.id;

  /** A verified user made for one test, signed in. */
  const newUser = async (role = 'Read Only') => {
    serial += 1;
    const email = `second.factors.${serial}.${kind}@example.com`;
    const password = `Factors@${serial}24680`;
    const created = await call('POST', 'users', admin, {
      first_name: 'Sam',
      last_name: 'Second',
      email,
      mobile: `98761${String(serial).padStart(5, '0')}`,
      role_id: await roleId(role),
      password,
      confirm_password: password,
    });
    expect(created.status).toBe(201);
    const id = Number(created.body.data.id);
    await server.db.query('UPDATE users SET email_verified_at = now() WHERE id = $1', [id]);
    const signedIn = await call('POST', 'login', {}, { email, password });
    return { id, email, password, headers: bearer(signedIn.body.data.access) };
  };
  const addPasskey = async (headers: Headers, name: string) => {
    const authenticator = new SoftwareAuthenticator(origin);
    const options = await call('POST', 'user/passkeys/registration-options', headers);
    const added = await call('POST', 'user/passkeys', headers, {
      name,
      response: authenticator.register(options.body.data),
    });
    expect(added.status).toBe(200);
    return authenticator;
  };
  const addApp = async (headers: Headers) => {
    const { secret } = (await call('POST', 'user/two-factor/totp', headers)).body.data;
    expect((await call('POST', 'user/two-factor/totp/confirm', headers, { code: totpCode(secret) })).status).toBe(200);
  };
  const passkeySignIn = async (authenticator: SoftwareAuthenticator) => {
    const options = (await call('POST', 'login/passkey-options')).body.data;
    return call('POST', 'login/passkey', {}, { response: authenticator.assert(options) });
  };

  it.skipIf(skip)(
    "sees a user's passkeys (names, added, last used) beside the app; the reset removes both, audited and e-mailed",
    async () => {
      const user = await newUser();
      await addApp(user.headers);
      const laptop = await addPasskey(user.headers, 'Laptop');
      await addPasskey(user.headers, 'Security key');
      expect((await passkeySignIn(laptop)).status).toBe(200);
      const seen = await call('GET', `users/${user.id}/two-factor`, admin);
      expect(seen.status).toBe(200);
      expect(seen.body.data).toMatchObject({ enabled: true, recovery_codes_left: 10, required: false });
      expect(seen.body.data.passkeys).toEqual([
        { id: expect.any(Number), name: 'Laptop', created_at: expect.any(String), last_used_at: expect.any(String) },
        { id: expect.any(Number), name: 'Security key', created_at: expect.any(String), last_used_at: null },
      ]);

      expect((await call('GET', 'user/sessions', user.headers)).status).toBe(200);
      const reset = await call('DELETE', `users/${user.id}/two-factor`, admin);
      expect(reset.status).toBe(200);
      // Every session of the user's ended with the factors: the one they had and the passkey's.
      expect((await call('GET', 'user/sessions', user.headers)).status).toBe(401);
      expect((await passkeySignIn(laptop)).status).toBe(401);
      const after = (await call('GET', `users/${user.id}/two-factor`, admin)).body.data;
      expect(after).toMatchObject({ enabled: false, passkeys: [] });
      const login = await call('POST', 'login', {}, { email: user.email, password: user.password });
      expect(login.body.data).toEqual({ access: expect.any(String), refresh: expect.any(String) });
      const [entry] = await server.db.query<{ details: unknown }>(
        `SELECT details FROM audit_log WHERE action = 'two_factor_reset' AND record_id = $1`,
        [user.id],
      );
      expect(entry!.details).toEqual({
        authenticator_app: true,
        passkeys: ['Laptop', 'Security key'],
        sessions_ended: expect.any(Number),
      });
      expect((entry!.details as { sessions_ended: number }).sessions_ended).toBeGreaterThanOrEqual(2);
      const mails = await server.db.query(
        `SELECT body FROM outbox WHERE recipient = $1 AND subject LIKE 'Two-factor%'`,
        [user.email],
      );
      expect(mails).toHaveLength(1);
      expect(JSON.stringify(mails[0])).toContain('your recovery codes and your 2 passkeys no longer work');
      expect((await call('DELETE', `users/${user.id}/two-factor`, admin)).status).toBe(409);
    },
  );

  it.skipIf(skip)(
    'resets a user with passkeys only; one whose role requires a second factor must enrol again at once',
    async () => {
      const role = await call('POST', 'roles', admin, { name: `Factors required ${kind}`, requires_two_factor: true });
      expect(role.status).toBe(201);
      const user = await newUser(`Factors required ${kind}`);
      await addPasskey(user.headers, 'Phone');
      expect((await call('GET', 'user/sessions', user.headers)).status).toBe(200);
      const seen = (await call('GET', `users/${user.id}/two-factor`, admin)).body.data;
      expect(seen).toMatchObject({ enabled: false, required: true, passkeys: [{ name: 'Phone' }] });
      expect((await call('DELETE', `users/${user.id}/two-factor`, admin)).status).toBe(200);
      // The session ended; signing in again leads to enrolment first.
      expect((await call('GET', 'user/sessions', user.headers)).status).toBe(401);
      const again = await call('POST', 'login', {}, { email: user.email, password: user.password });
      expect(again.body.data).toMatchObject({ enrol_required: true });
      const refused = await call('GET', 'user/sessions', { authorization: `Bearer ${again.body.data.access}` });
      expect(refused).toMatchObject({ status: 403, body: { code: ENROLMENT_REQUIRED } });
      const [mail] = await server.db.query(
        `SELECT body FROM outbox WHERE recipient = $1 AND subject LIKE 'Two-factor%'`,
        [user.email],
      );
      expect(JSON.stringify(mail)).toContain('your passkey no longer works');
    },
  );

  it.skipIf(skip)(
    'no token 401, a role without the permission 403, an unknown or deleted user 404, in any spelling',
    async () => {
      const user = await newUser();
      await addPasskey(user.headers, 'Laptop');
      const reader = user.headers; // Read Only may read users, not edit them.
      const stranger = await server.auth('Data Operator');
      for (const url of spellings(`/api/v1/users/${user.id}/two-factor`)) {
        for (const method of ['GET', 'DELETE'] as const) {
          const anonymous = await server.app.inject({ method, url });
          expect([401, 404], `${method} ${url}`).toContain(anonymous.statusCode);
          const refused = await server.app.inject({ method, url, headers: stranger });
          expect([403, 404], `${method} ${url}`).toContain(refused.statusCode);
          expect(refused.body).not.toContain('Laptop');
        }
        const notEditor = await server.app.inject({ method: 'DELETE', url, headers: reader });
        expect([403, 404], url).toContain(notEditor.statusCode);
      }
      expect((await call('GET', `users/${user.id}/two-factor`, {})).status).toBe(401);
      expect((await call('GET', `users/${user.id}/two-factor`, stranger)).status).toBe(403);
      expect((await call('GET', `users/${user.id}/two-factor`, reader)).status).toBe(200);
      expect((await call('DELETE', `users/${user.id}/two-factor`, reader)).status).toBe(403);
      expect((await call('GET', 'users/999999/two-factor', admin)).status).toBe(404);
      expect((await call('DELETE', 'users/999999/two-factor', admin)).status).toBe(404);

      const read = await server.app.inject({ method: 'GET', url: `/api/v1/users/${user.id}`, headers: admin });
      const deleted = await server.app.inject({
        method: 'DELETE',
        url: `/api/v1/users/${user.id}`,
        headers: { ...admin, 'if-match': read.headers.etag! },
      });
      expect(deleted.statusCode).toBe(200);
      expect((await call('GET', `users/${user.id}/two-factor`, admin)).status).toBe(404);
      expect((await call('DELETE', `users/${user.id}/two-factor`, admin)).status).toBe(404);
      // Still passkeys for an administrator's odd spelling: the handler served, nothing left to reset.
      const other = await newUser();
      await addPasskey(other.headers, 'Tablet');
      const odd = await server.app.inject({
        method: 'GET',
        url: `/%61pi/v1/users/${other.id}/two-factor`,
        headers: admin,
      });
      expect(odd.json().data.passkeys).toEqual([expect.objectContaining({ name: 'Tablet' })]);
    },
  );
});
