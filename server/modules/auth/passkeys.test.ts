import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SoftwareAuthenticator } from '../../testing/softwareAuthenticator.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { ENROLMENT_REQUIRED } from './access.ts';
import { relyingParty } from './passkeys.ts';

const databases = await testDatabases();
type Headers = Record<string, string>;

describe.each(databases)('passkeys, on $kind', ({ kind, skip }) => {
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

  const call = async (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    headers: Headers = {},
    body?: object,
  ) => {
    const response = await server.app.inject({ method, url: `/api/v1/${url}`, headers, payload: body });
    return { status: response.statusCode, body: response.json() as any };
  };
  const bearer = (access: string) => ({ authorization: `Bearer ${access}` });

  /** A verified user made for one test, signed in; of `role` (Read Only unless said). */
  const newUser = async (role = 'Read Only') => {
    serial += 1;
    const email = `passkey.${serial}.${kind}@example.com`;
    const password = `Passkey@${serial}97531`;
    const [found] = await server.db.query<{ id: number }>('SELECT id FROM roles WHERE name = $1', [role]);
    const created = await call('POST', 'users', admin, {
      first_name: 'Pia',
      last_name: 'Passkey',
      email,
      mobile: `98763${String(serial).padStart(5, '0')}`,
      role_id: found!.id,
      password,
      confirm_password: password,
    });
    expect(created.status).toBe(201);
    const id = Number(created.body.data.id);
    await server.db.query('UPDATE users SET email_verified_at = now() WHERE id = $1', [id]);
    const signedIn = await call('POST', 'login', {}, { email, password });
    return { id, email, password, login: signedIn.body.data, headers: bearer(signedIn.body.data.access ?? '') };
  };
  /** Registers a new software passkey for a user; answers the authenticator and the added passkey. */
  const addPasskey = async (headers: Headers, name = 'Laptop') => {
    const authenticator = new SoftwareAuthenticator(origin);
    const options = await call('POST', 'user/passkeys/registration-options', headers);
    expect(options.status).toBe(200);
    const added = await call('POST', 'user/passkeys', headers, {
      name,
      response: authenticator.register(options.body.data),
    });
    expect(added.status).toBe(200);
    return { authenticator, passkey: added.body.data as { id: number; name: string } };
  };
  const signInOptions = async () => (await call('POST', 'login/passkey-options')).body.data;
  const signIn = async (authenticator: SoftwareAuthenticator) =>
    call('POST', 'login/passkey', {}, { response: authenticator.assert(await signInOptions()) });

  it.skipIf(skip)(
    'registers a discoverable passkey, lists it, and signs in with it alone: a session and a sign-in like a password',
    async () => {
      const user = await newUser();
      const options = await call('POST', 'user/passkeys/registration-options', user.headers);
      expect(options.body.data).toMatchObject({
        rp: { id: new URL(origin).hostname },
        authenticatorSelection: { residentKey: 'required' },
        challenge: expect.any(String),
      });
      const { authenticator, passkey } = await addPasskey(user.headers, 'Work laptop');
      expect(passkey).toMatchObject({ name: 'Work laptop', last_used_at: null });
      const signedIn = await signIn(authenticator);
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.data).toEqual({ access: expect.any(String), refresh: expect.any(String) });
      expect((await call('GET', 'user/sessions', bearer(signedIn.body.data.access))).status).toBe(200);
      const listed = await call('GET', 'user/passkeys', user.headers);
      expect(listed.body.data).toEqual([
        { id: passkey.id, name: 'Work laptop', created_at: expect.any(String), last_used_at: expect.any(String) },
      ]);
      const history = await server.db.query<{ outcome: string; session_id: string | null }>(
        'SELECT outcome, session_id FROM sign_ins WHERE user_id = $1 ORDER BY id',
        [user.id],
      );
      expect(history.map((row) => row.outcome)).toEqual(['success', 'success']);
      expect(history[1]!.session_id).not.toBeNull();
      const audit = await server.db.query<{ action: string }>(
        `SELECT action FROM audit_log WHERE record_id = $1 AND action IN ('passkey_added', 'login') ORDER BY id`,
        [user.id],
      );
      expect(audit.map((row) => row.action)).toEqual(['login', 'passkey_added', 'login']);
      // The answer to a second passkey of the same authenticator: refused (already registered).
      const again = await call('POST', 'user/passkeys/registration-options', user.headers);
      expect(again.body.data.excludeCredentials).toEqual([expect.objectContaining({ id: authenticator.id })]);
    },
  );

  it.skipIf(skip)('a challenge works once, also when the response it came with was refused', async () => {
    const user = await newUser();
    const authenticator = new SoftwareAuthenticator(origin);
    const options = (await call('POST', 'user/passkeys/registration-options', user.headers)).body.data;
    const response = authenticator.register(options);
    expect((await call('POST', 'user/passkeys', user.headers, { name: 'A', response })).status).toBe(200);
    const reused = await call('POST', 'user/passkeys', user.headers, { name: 'B', response });
    expect(reused).toMatchObject({ status: 400, body: { errors: { response: expect.any(String) } } });

    const challenge = await signInOptions();
    const first = authenticator.assert(challenge);
    expect((await call('POST', 'login/passkey', {}, { response: first })).status).toBe(200);
    expect((await call('POST', 'login/passkey', {}, { response: authenticator.assert(challenge) })).status).toBe(401);
    // A registration's challenge is no sign-in's.
    const registering = (await call('POST', 'user/passkeys/registration-options', user.headers)).body.data;
    const crossed = authenticator.assert({ challenge: registering.challenge, rpId: registering.rp.id });
    expect((await call('POST', 'login/passkey', {}, { response: crossed })).status).toBe(401);
  });

  it.skipIf(skip)('refuses another origin or relying party, at registration and at sign-in', async () => {
    const user = await newUser();
    const phishing = new SoftwareAuthenticator('https://console.example.net');
    const options = (await call('POST', 'user/passkeys/registration-options', user.headers)).body.data;
    const wrongOrigin = await call('POST', 'user/passkeys', user.headers, {
      name: 'Phished',
      response: phishing.register(options),
    });
    expect(wrongOrigin.status).toBe(400);
    const other = (await call('POST', 'user/passkeys/registration-options', user.headers)).body.data;
    const wrongRp = new SoftwareAuthenticator(origin).register(other, 'example.net');
    expect((await call('POST', 'user/passkeys', user.headers, { name: 'Other', response: wrongRp })).status).toBe(400);
    expect((await call('GET', 'user/passkeys', user.headers)).body.data).toEqual([]);

    const { authenticator } = await addPasskey(user.headers);
    authenticator.origin = 'https://console.example.net';
    expect((await signIn(authenticator)).status).toBe(401);
    authenticator.origin = origin;
    const challenge = await signInOptions();
    const elsewhere = authenticator.assert(challenge, 'example.net');
    expect((await call('POST', 'login/passkey', {}, { response: elsewhere })).status).toBe(401);
    expect((await signIn(authenticator)).status).toBe(200);
  });

  it.skipIf(skip)('refuses a counter that goes backwards (a cloned authenticator), and a wrong signature', async () => {
    const user = await newUser();
    const { authenticator } = await addPasskey(user.headers);
    authenticator.counter = 10;
    expect((await signIn(authenticator)).status).toBe(200);
    authenticator.counter = 3;
    const cloned = await signIn(authenticator);
    expect(cloned.status).toBe(401);
    const stranger = new SoftwareAuthenticator(origin);
    Object.assign(stranger, { credentialId: authenticator.credentialId });
    expect((await signIn(stranger)).status).toBe(401);
    const failed = await server.db.query(
      `SELECT details FROM audit_log WHERE action = 'login_failed' AND details->>'reason' = 'passkey_refused'`,
    );
    expect(failed.length).toBeGreaterThanOrEqual(2);
  });

  it.skipIf(skip)("renames and removes one's own passkey; another user's is a 404; without a token, 401", async () => {
    const user = await newUser();
    const other = await newUser();
    const { authenticator, passkey } = await addPasskey(user.headers);
    for (const [method, body] of [
      ['PATCH', { name: 'Mine now' }],
      ['DELETE', undefined],
    ] as const)
      expect((await call(method, `user/passkeys/${passkey.id}`, other.headers, body)).status).toBe(404);
    for (const [method, url] of [
      ['GET', 'user/passkeys'],
      ['POST', 'user/passkeys/registration-options'],
      ['POST', 'user/passkeys'],
      ['PATCH', `user/passkeys/${passkey.id}`],
      ['DELETE', `user/passkeys/${passkey.id}`],
    ] as const)
      expect((await call(method, url, {}, method === 'GET' ? undefined : {})).status, url).toBe(401);
    const renamed = await call('PATCH', `user/passkeys/${passkey.id}`, user.headers, { name: 'Phone' });
    expect(renamed.body.data).toMatchObject({ id: passkey.id, name: 'Phone' });
    const removed = await call('DELETE', `user/passkeys/${passkey.id}`, user.headers);
    expect(removed).toMatchObject({ status: 200, body: { message: 'Passkey "Phone" removed.' } });
    expect((await signIn(authenticator)).status).toBe(401);
    expect((await call('DELETE', `user/passkeys/${passkey.id}`, user.headers)).status).toBe(404);
    const actions = await server.db.query<{ action: string }>(
      `SELECT action FROM audit_log WHERE record_id = $1 AND action LIKE 'passkey_%' ORDER BY id`,
      [user.id],
    );
    expect(actions.map((row) => row.action)).toEqual(['passkey_added', 'passkey_renamed', 'passkey_removed']);
  });

  it.skipIf(skip)(
    'after the password, a passkey is the second step: only the user’s own, the mfa_token spent once',
    async () => {
      const user = await newUser();
      const stranger = await newUser();
      const { authenticator } = await addPasskey(user.headers);
      const { authenticator: theirs } = await addPasskey(stranger.headers);
      const first = await call('POST', 'login', {}, { email: user.email, password: user.password });
      expect(first.body.data).toEqual({ mfa_required: true, mfa_token: expect.any(String), methods: ['passkey'] });
      const token = first.body.data.mfa_token as string;
      const options = async () =>
        (await call('POST', 'login/two-factor/passkey-options', {}, { mfa_token: token })).body.data;
      const given = await options();
      expect(given.allowCredentials).toEqual([expect.objectContaining({ id: authenticator.id })]);
      const step = (response: object) => call('POST', 'login/two-factor/passkey', {}, { mfa_token: token, response });
      expect((await step(theirs.assert(await options()))).status).toBe(401);
      const signedIn = await step(authenticator.assert(await options()));
      expect(signedIn.body.data).toEqual({ access: expect.any(String), refresh: expect.any(String) });
      expect((await step(authenticator.assert(await signInOptions()))).status).toBe(401);
      expect((await call('POST', 'login/two-factor/passkey-options', {}, { mfa_token: token })).status).toBe(401);
      const outcomes = await server.db.query<{ outcome: string }>(
        'SELECT outcome FROM sign_ins WHERE user_id = $1 ORDER BY id',
        [user.id],
      );
      expect(outcomes.map((row) => row.outcome)).toEqual(['success', 'wrong_code', 'success']);
    },
  );

  it.skipIf(skip)(
    'a role that requires two-factor sign-in is satisfied by a passkey, whose last one cannot then be removed',
    async () => {
      const role = await call('POST', 'roles', admin, { name: `Passkey required ${kind}`, requires_two_factor: true });
      expect(role.status).toBe(201);
      const user = await newUser(`Passkey required ${kind}`);
      expect(user.login).toMatchObject({ enrol_required: true, methods: ['totp', 'passkey'] });
      expect((await call('GET', 'user/sessions', user.headers)).body.code).toBe(ENROLMENT_REQUIRED);
      const { authenticator, passkey } = await addPasskey(user.headers);
      expect((await call('GET', 'user/sessions', user.headers)).status).toBe(200);
      const removed = await call('DELETE', `user/passkeys/${passkey.id}`, user.headers);
      expect(removed.status).toBe(409);
      expect((await signIn(authenticator)).status).toBe(200);
    },
  );

  it.skipIf(skip)("a deleted user's passkeys are not kept: a restored user adds them again", async () => {
    const user = await newUser();
    const { authenticator } = await addPasskey(user.headers);
    const read = await server.app.inject({ method: 'GET', url: `/api/v1/users/${user.id}`, headers: admin });
    const deleted = await server.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${user.id}`,
      headers: { ...admin, 'if-match': read.headers.etag! },
    });
    expect(deleted.statusCode).toBe(200);
    const kept = await server.db.query('SELECT 1 FROM user_passkeys WHERE user_id = $1', [user.id]);
    expect(kept).toEqual([]);
    const trash = await server.db.query<{ text: string }>(
      'SELECT stored_row::text || cascaded_rows::text AS text FROM trash WHERE record_id = $1',
      [user.id],
    );
    expect(trash).toHaveLength(1);
    expect(trash.some((row) => row.text.includes(authenticator.id))).toBe(false);
    expect((await signIn(authenticator)).status).toBe(401);
  });
});
