import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, testMail, type TestServer } from '../../testing/testServer.ts';
import { LINKS_PER_HOUR } from '../auth/emailLinks.ts';
import { EMAIL_NOT_VERIFIED } from '../auth/routes.ts';
import { upsertUser } from '../../seed/roles.ts';
import { startSmtpTestServer, type DeliveredMail, type SmtpTestServer } from '../mail/testing/smtpTestServer.ts';

const databases = await testDatabases();

describe.each(databases)('verifying the address of a user an administrator created, on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let smtp: SmtpTestServer;
  let admin: Record<string, string>;
  let roleId: number;
  let serial = 0;

  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    server.app.inject({ method: 'POST', url: `/api/v1/${url}`, payload, headers });
  const get = (url: string, headers: Record<string, string> = {}) =>
    server.app.inject({ method: 'GET', url: `/api/v1/${url}`, headers });
  const delivered = (email: string) => smtp.delivered.filter((mail) => mail.to.includes(email));
  const waitForMail = async (email: string, count: number): Promise<DeliveredMail> => {
    await smtp.waitFor(() => delivered(email).length >= count);
    return delivered(email)[count - 1]!;
  };
  /** A new user created by the administrator, as the user-management screen does. */
  const createUser = async (password: string) => {
    serial += 1;
    const email = `new.user${serial}.${kind}@example.com`;
    const created = await post(
      'users',
      {
        first_name: 'Nila',
        last_name: 'New',
        email,
        mobile: '9876500011',
        role_id: roleId,
        password,
        confirm_password: password,
      },
      admin,
    );
    expect(created.statusCode, created.body).toBe(201);
    return { id: (created.json() as { data: { id: number } }).data.id, email };
  };
  /** Lets the minute between two public requests for a link pass (the links' times moved back, as time would). */
  const letAMinutePass = (userId: number) =>
    server.db.query(`UPDATE email_links SET created_at = created_at - interval '61 seconds' WHERE user_id = $1`, [
      userId,
    ]);

  beforeAll(async () => {
    if (skip) return;
    smtp = await startSmtpTestServer();
    server = await startTestServer(kind, { mail: testMail(smtp.url) });
    admin = await server.auth('Super Admin');
    const [role] = await server.db.query<{ id: number }>(`SELECT id FROM roles WHERE name = 'Read Only'`);
    roleId = role!.id;
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it.skipIf(skip)(
    'is refused at sign-in until the delivered link is opened, with a message a stranger never sees; then signs in',
    async () => {
      const { email } = await createUser('Nila@13579');
      const mail = await waitForMail(email, 1);
      expect(mail.subject).toBe('Verify your e-mail address for the Trade Data administration console');
      expect(mail.text).toContain('expires in 7 days');

      const refused = await post('login', { email, password: 'Nila@13579' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: EMAIL_NOT_VERIFIED });
      // A wrong password is the plain refusal, so the 403 tells only the account's owner that it exists.
      const wrong = await post('login', { email, password: 'Wrong@13579' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.body).toBe(
        (await post('login', { email: `nobody.${kind}@example.com`, password: 'Wrong@13579' })).body,
      );

      const link = new URL(mail.links[0]!);
      expect(link.pathname).toBe('/auth/verify-email');
      const verified = await post('email-verify', { token: link.searchParams.get('token') });
      expect(verified.json()).toEqual({ message: 'Your email address has been verified. You can sign in now.' });
      expect((await post('login', { email, password: 'Nila@13579' })).statusCode).toBe(200);
    },
  );

  it.skipIf(skip)(
    '"send the link again" needs the credentials, waits a minute after the last link, and the new link verifies',
    async () => {
      const { id, email } = await createUser('Again@13579');
      await waitForMail(email, 1);
      expect((await post('email-verify/resend', { email, password: 'Wrong@13579' })).statusCode).toBe(401);
      const tooSoon = await post('email-verify/resend', { email, password: 'Again@13579' });
      expect(tooSoon.statusCode).toBe(429);
      expect(tooSoon.json().message).toMatch(
        /^A verification link was sent to you a moment ago\. Try again in \d+ second\(s\)\.$/,
      );
      expect(Number(tooSoon.headers['retry-after'])).toBeGreaterThan(50);
      expect(Number(tooSoon.headers['retry-after'])).toBeLessThanOrEqual(60);

      await letAMinutePass(id);
      const resent = await post('email-verify/resend', { email: email.toUpperCase(), password: 'Again@13579' });
      expect(resent.statusCode).toBe(200);
      expect(resent.json()).toEqual({ message: `A new verification link was sent to ${email}. It expires in 7 days.` });
      const second = await waitForMail(email, 2);
      expect(
        (await post('email-verify', { token: new URL(second.links[0]!).searchParams.get('token') })).statusCode,
      ).toBe(200);
      expect((await post('login', { email, password: 'Again@13579' })).statusCode).toBe(200);
      expect((await post('email-verify/resend', { email, password: 'Again@13579' })).json()).toEqual({
        message: 'Your email address is already verified. You can sign in.',
      });
    },
  );

  it.skipIf(skip)('a password reset through the e-mailed link verifies the address too', async () => {
    const { email } = await createUser('Reset@13579');
    await waitForMail(email, 1);
    expect((await post('forget_password', { email })).statusCode).toBe(200);
    const reset = await waitForMail(email, 2);
    const token = new URL(reset.links[0]!).searchParams.get('token');
    expect(
      (await post('reset_password', { token, password: 'Reset@24680', confirm_password: 'Reset@24680' })).statusCode,
    ).toBe(200);
    expect((await post('login', { email, password: 'Reset@24680' })).statusCode).toBe(200);
  });

  it.skipIf(skip)(
    'an administrator sees the state and resends the link, at most 5 an hour; not to a verified or inactive user',
    async () => {
      const { id, email } = await createUser('Admin@13579');
      await waitForMail(email, 1);
      const status = await get(`users/${id}/email-verification`, admin);
      expect(status.statusCode).toBe(200);
      const before = status.json().data;
      expect(before).toMatchObject({ email, verified_at: null });
      expect(Date.parse(before.last_link_expires_at) - Date.parse(before.last_link_sent_at)).toBe(7 * 24 * 3600 * 1000);

      for (let sent = 2; sent <= LINKS_PER_HOUR; sent += 1) {
        const resent = await post(`users/${id}/email-verification`, {}, admin);
        expect(resent.statusCode, resent.body).toBe(200);
        expect(resent.json().message).toBe(`A new verification link was sent to ${email}.`);
        await waitForMail(email, sent);
      }
      const limited = await post(`users/${id}/email-verification`, {}, admin);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().message).toMatch(
        /^5 verification links were sent to this user in the last hour\. Try again in \d+ second\(s\)\.$/,
      );
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3500);

      // Any of the links works.
      const first = delivered(email)[0]!;
      expect(
        (await post('email-verify', { token: new URL(first.links[0]!).searchParams.get('token') })).statusCode,
      ).toBe(200);
      expect((await get(`users/${id}/email-verification`, admin)).json().data.verified_at).not.toBeNull();
      const verified = await post(`users/${id}/email-verification`, {}, admin);
      expect(verified.statusCode).toBe(409);
      expect(verified.json()).toEqual({ message: `${email} is already verified.` });

      const inactive = await createUser('Idle@13579');
      const version = (await get(`users/${inactive.id}`, admin)).json().data.version;
      await server.app.inject({
        method: 'PATCH',
        url: `/api/v1/users/${inactive.id}/status`,
        payload: { is_active: false },
        headers: { ...admin, 'if-match': `"${version}"` },
      });
      expect((await post(`users/${inactive.id}/email-verification`, {}, admin)).json()).toEqual({
        message: 'This user is inactive: activate them before sending a link.',
      });
      const [written] = await server.db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM outbox WHERE recipient = $1',
        [inactive.email],
      );
      expect(written!.count).toBe(1);
    },
  );

  it.skipIf(skip)(
    'create-admin naming an address that waits for verification makes it a verified administrator',
    async () => {
      const { email } = await createUser('Waiting@13579');
      const [superAdmin] = await server.db.query<{ id: number }>(`SELECT id FROM roles WHERE name = 'Super Admin'`);
      await upsertUser(
        server.db,
        server.app.passwords,
        { email, password: 'Admin@24680', firstName: 'Nila', lastName: 'New', role: 'Super Admin' },
        superAdmin!.id,
      );
      expect((await post('login', { email, password: 'Admin@24680' })).statusCode).toBe(200);
    },
  );

  it.skipIf(skip)(
    'the administrator routes: no token 401, a role without the action 403, an unknown user 404, a body with other fields 400',
    async () => {
      const { id } = await createUser('Rules@13579');
      const viewer = await server.auth('Read Only');
      const sales = await server.auth('Sales Executive');
      expect((await get(`users/${id}/email-verification`)).statusCode).toBe(401);
      expect((await post(`users/${id}/email-verification`, {})).statusCode).toBe(401);
      // Read Only sees the state (view_detail) but cannot send (edit); Sales Executive has no user management at all.
      expect((await get(`users/${id}/email-verification`, viewer)).statusCode).toBe(200);
      expect((await post(`users/${id}/email-verification`, {}, viewer)).statusCode).toBe(403);
      expect((await get(`users/${id}/email-verification`, sales)).statusCode).toBe(403);
      expect((await post(`users/${id}/email-verification`, {}, sales)).statusCode).toBe(403);
      expect((await get('users/999999/email-verification', admin)).statusCode).toBe(404);
      expect((await post('users/999999/email-verification', {}, admin)).statusCode).toBe(404);
      const extra = await post(`users/${id}/email-verification`, { email: 'someone.else@example.com' }, admin);
      expect(extra.statusCode).toBe(400);
      expect(Object.keys(extra.json().errors)).toEqual(['email']);
    },
  );
});
