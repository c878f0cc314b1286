import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { totpCode } from './totp.ts';
import { codeThrottleKey } from './twoFactorCodes.ts';

const databases = await testDatabases();
const STEP = 30_000;
type Headers = Record<string, string>;

describe.each(databases)('two-factor sign-in with an authenticator app, on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Headers;
  let serial = 0;
  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    admin = await server.auth('Super Admin');
  });
  afterAll(async () => server?.close());

  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Headers = {}, payload?: object) => {
    const response = await server.app.inject({ method, url: `/api/v1/${url}`, headers, payload });
    return { status: response.statusCode, body: response.json() as any, headers: response.headers };
  };
  const bearer = (access: string) => ({ authorization: `Bearer ${access}` });
  const login = (email: string, password: string) => call('POST', 'login', {}, { email, password });
  const secondStep = (mfa_token: string, code: string) => call('POST', 'login/two-factor', {}, { mfa_token, code });
  const outcomes = async (id: number) =>
    (
      await server.db.query<{ outcome: string }>('SELECT outcome FROM sign_ins WHERE user_id = $1 ORDER BY id', [id])
    ).map((row) => row.outcome);

  /** A verified user made for one test, signed in, with two-factor sign-in on (its first code: the current step). */
  const enrolledUser = async () => {
    serial += 1;
    const email = `totp.${serial}.${kind}@example.com`;
    const password = `Totp@${serial}13579`;
    const [role] = await server.db.query<{ id: number }>(`SELECT id FROM roles WHERE name = 'Read Only'`);
    const created = await call('POST', 'users', admin, {
      first_name: 'Tia',
      last_name: 'Totp',
      email,
      mobile: `98765${String(serial).padStart(5, '0')}`,
      role_id: role!.id,
      password,
      confirm_password: password,
    });
    expect(created.status).toBe(201);
    const id = Number(created.body.data.id);
    await server.db.query('UPDATE users SET email_verified_at = now() WHERE id = $1', [id]);
    const access = (await login(email, password)).body.data.access as string;
    const started = await call('POST', 'user/two-factor/totp', bearer(access));
    expect(started.status).toBe(200);
    const { secret, otpauth_uri, qr_code } = started.body.data;
    expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(otpauth_uri).toContain('digits=6');
    expect(qr_code).toMatch(/^data:image\/png;base64,/);
    const wrong = await call('POST', 'user/two-factor/totp/confirm', bearer(access), {
      code: '000000' === totpCode(secret) ? '111111' : '000000',
    });
    expect(wrong.status).toBe(400);
    const confirmed = await call('POST', 'user/two-factor/totp/confirm', bearer(access), { code: totpCode(secret) });
    expect(confirmed.status).toBe(200);
    const recovery = confirmed.body.data.recovery_codes as string[];
    return { id, email, password, access, secret, recovery };
  };
  /** The first step: a password that matched answers a second step, no tokens. */
  const firstStep = async (user: { email: string; password: string }) => {
    const answer = await login(user.email, user.password);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      mfa_required: true,
      mfa_token: expect.any(String),
      methods: ['totp', 'recovery_code'],
    });
    return answer.body.data.mfa_token as string;
  };

  it.skipIf(skip)(
    'enrols with a QR code, a first code and ten recovery codes; the secret is stored encrypted',
    async () => {
      const user = await enrolledUser();
      expect(user.recovery).toHaveLength(10);
      expect(new Set(user.recovery).size).toBe(10);
      const status = await call('GET', 'user/two-factor', bearer(user.access));
      expect(status.body.data).toMatchObject({
        enabled: true,
        methods: ['totp', 'recovery_code'],
        recovery_codes_left: 10,
      });
      const [stored] = await server.db.query<{ secret: string }>('SELECT secret FROM user_totp WHERE user_id = $1', [
        user.id,
      ]);
      expect(stored!.secret).not.toContain(user.secret);
      const hashes = await server.db.query<{ code_hash: string }>(
        'SELECT code_hash FROM user_recovery_codes WHERE user_id = $1',
        [user.id],
      );
      expect(hashes.map((row) => row.code_hash)).not.toContain(user.recovery[0]);
      expect((await call('POST', 'user/two-factor/totp', bearer(user.access))).status).toBe(409);
      const [entry] = await server.db.query(
        `SELECT user_id FROM audit_log WHERE action = 'two_factor_on' AND record_id = $1`,
        [user.id],
      );
      expect(entry).toEqual({ user_id: user.id });
    },
  );

  it.skipIf(skip)('signs in with a code once; the mfa_token and the code are refused the second time', async () => {
    const user = await enrolledUser();
    const token = await firstStep(user);
    const next = totpCode(user.secret, Date.now() + STEP);
    const signedIn = await secondStep(token, next);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data).toEqual({ access: expect.any(String), refresh: expect.any(String) });
    expect((await call('GET', 'user/profile', bearer(signedIn.body.data.access))).status).toBe(200);

    // The token is spent, even with a code that would be right.
    expect((await secondStep(token, user.recovery[0]!)).status).toBe(401);
    // A fresh token, but the code was accepted already: refused, and written down as a wrong code.
    const again = await secondStep(await firstStep(user), next);
    expect(again).toMatchObject({ status: 401, body: { message: 'Wrong code.' } });
    expect(await outcomes(user.id)).toEqual(['success', 'success', 'wrong_code']);
    const failed = await server.db.query(
      `SELECT details FROM audit_log WHERE action = 'login_failed' AND record_id = $1`,
      [user.id],
    );
    expect(failed).toEqual([{ details: { email: user.email, reason: 'wrong_code' } }]);
  });

  it.skipIf(skip)('refuses an expired mfa_token and an unknown one', async () => {
    const user = await enrolledUser();
    const token = await firstStep(user);
    await server.db.query(`UPDATE mfa_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [
      user.id,
    ]);
    const expired = await secondStep(token, user.recovery[0]!);
    expect(expired.status).toBe(401);
    expect(expired.body.message).toMatch(/expired/);
    expect((await secondStep('not-a-token', user.recovery[0]!)).status).toBe(401);
    // The recovery code was not used up by the refused attempts.
    expect((await secondStep(await firstStep(user), user.recovery[0]!)).status).toBe(200);
  });

  it.skipIf(skip)('accepts each recovery code once; new codes replace the old ones', async () => {
    const user = await enrolledUser();
    const [first, second] = user.recovery;
    expect((await secondStep(await firstStep(user), first!.toUpperCase())).status).toBe(200);
    expect((await secondStep(await firstStep(user), first!)).status).toBe(401);
    const status = await call('GET', 'user/two-factor', bearer(user.access));
    expect(status.body.data.recovery_codes_left).toBe(9);

    const renewed = await call('POST', 'user/two-factor/recovery-codes', bearer(user.access), { code: second });
    expect(renewed.status).toBe(200);
    expect(renewed.body.data.recovery_codes).toHaveLength(10);
    expect((await secondStep(await firstStep(user), user.recovery[2]!)).status).toBe(401);
    expect((await secondStep(await firstStep(user), renewed.body.data.recovery_codes[0])).status).toBe(200);
  });

  it.skipIf(skip)(
    'throttles wrong codes per user, apart from the password, and writes them in the history',
    async () => {
      const user = await enrolledUser();
      const token = await firstStep(user);
      let refused = null as Awaited<ReturnType<typeof call>> | null;
      for (let attempt = 0; attempt < 12 && !refused; attempt += 1) {
        const answer = await secondStep(token, `zzzzz-${attempt}`);
        if (answer.status === 429) refused = answer;
        else expect(answer.status).toBe(401);
      }
      expect(refused?.headers['retry-after']).toMatch(/^\d+$/);
      expect(await outcomes(user.id)).toContain('throttled');
      expect((await outcomes(user.id)).filter((outcome) => outcome === 'wrong_code').length).toBeGreaterThanOrEqual(5);
      // A right password does not start the count of codes afresh.
      await firstStep(user);
      const [row] = await server.db.query<{ failures: number }>(
        'SELECT failures FROM login_throttle WHERE account = $1',
        [codeThrottleKey(user.id)],
      );
      expect(row!.failures).toBeGreaterThanOrEqual(5);
    },
  );

  it.skipIf(skip)('turns off with a code: the password alone signs in again', async () => {
    const user = await enrolledUser();
    expect((await call('DELETE', 'user/two-factor', bearer(user.access), { code: 'wrong-code' })).status).toBe(400);
    const off = await call('DELETE', 'user/two-factor', bearer(user.access), { code: user.recovery[0] });
    expect(off.status).toBe(200);
    expect((await login(user.email, user.password)).body.data).toEqual({
      access: expect.any(String),
      refresh: expect.any(String),
    });
    expect((await call('GET', 'user/two-factor', bearer(user.access))).body.data.enabled).toBe(false);
    expect((await call('DELETE', 'user/two-factor', bearer(user.access), { code: user.recovery[1] })).status).toBe(409);
  });

  it.skipIf(skip)(
    'an administrator sees whether a user has a second factor and resets it: audited, the user told by e-mail',
    async () => {
      const user = await enrolledUser();
      const other = await enrolledUser();
      expect((await call('DELETE', `users/${user.id}/two-factor`, bearer(other.access))).status).toBe(403);
      // A reader of users sees whether it is on; a role without the users' detail may not.
      expect((await call('GET', `users/${user.id}/two-factor`, bearer(other.access))).status).toBe(200);
      expect((await call('GET', `users/${user.id}/two-factor`, await server.auth('Data Operator'))).status).toBe(403);
      expect((await call('GET', `users/${user.id}/two-factor`, {})).status).toBe(401);
      expect((await call('GET', `users/${user.id}/two-factor`, admin)).body.data).toMatchObject({
        enabled: true,
        recovery_codes_left: 10,
      });
      const reset = await call('DELETE', `users/${user.id}/two-factor`, admin);
      expect(reset.status).toBe(200);
      const [mail] = await server.db.query<{ subject: string }>(
        `SELECT subject FROM outbox WHERE recipient = $1 AND subject LIKE 'Two-factor%'`,
        [user.email],
      );
      expect(mail!.subject).toMatch(/Two-factor sign-in was reset/);
      const [entry] = await server.db.query(
        `SELECT record_id FROM audit_log WHERE action = 'two_factor_reset' AND record_id = $1`,
        [user.id],
      );
      expect(entry).toEqual({ record_id: user.id });
      expect((await login(user.email, user.password)).body.data.access).toEqual(expect.any(String));
      expect((await call('DELETE', `users/${user.id}/two-factor`, admin)).status).toBe(409);
      expect((await call('GET', `users/${user.id}/two-factor`, admin)).body.data.enabled).toBe(false);
      expect((await call('DELETE', 'users/999999/two-factor', admin)).status).toBe(404);
      expect((await call('GET', 'users/999999/two-factor', admin)).status).toBe(404);
    },
  );
});
