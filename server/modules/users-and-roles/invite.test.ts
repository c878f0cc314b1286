import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, testMail, type TestServer } from '../../testing/testServer.ts';
import { startSmtpTestServer, type DeliveredMail, type SmtpTestServer } from '../mail/testing/smtpTestServer.ts';

const databases = await testDatabases();

describe.each(databases)('a user created without a password is invited to choose it, on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let smtp: SmtpTestServer;
  let admin: Record<string, string>;
  let roleId: number;
  let serial = 0;

  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    server.app.inject({ method: 'POST', url: `/api/v1/${url}`, payload, headers });
  const waitForMail = async (email: string): Promise<DeliveredMail> => {
    await smtp.waitFor(() => smtp.delivered.some((mail) => mail.to.includes(email)));
    return smtp.delivered.find((mail) => mail.to.includes(email))!;
  };
  /** A user as the console's form creates them: no password. */
  const invite = async (extra: object = {}) => {
    serial += 1;
    const email = `invited${serial}.${kind}@example.com`;
    const created = await post(
      'users',
      { first_name: 'Ira', last_name: 'Invited', email, mobile: '9876500021', role_id: roleId, ...extra },
      admin,
    );
    expect(created.statusCode, created.body).toBe(201);
    const mail = await waitForMail(email);
    return { email, mail, token: new URL(mail.links[0]!).searchParams.get('token')! };
  };

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
    'the e-mailed link asks for a password, which verifies the address with it; then the user signs in',
    async () => {
      const { email, mail, token } = await invite();
      expect(mail.subject).toBe('You are invited to the Trade Data administration console');
      expect(mail.text).toContain('Choose your password to sign in.');
      expect(new URL(mail.links[0]!).pathname).toBe('/auth/verify-email');
      // No password yet: no sign-in, whatever is typed.
      expect((await post('login', { email, password: 'Guess@13579' })).statusCode).toBe(401);

      const checked = await post('email-verify/check', { token });
      expect(checked.json()).toEqual({ data: { valid: true, email, password_set: false } });
      const withoutPassword = await post('email-verify', { token });
      expect(withoutPassword.statusCode).toBe(400);
      expect(withoutPassword.json().errors).toEqual({
        password: 'Choose a password to finish setting up your account.',
      });
      const weak = await post('email-verify', { token, password: 'short', confirm_password: 'short' });
      expect(weak.statusCode).toBe(400);

      // The refusals left the link usable.
      const chosen = await post('email-verify', { token, password: 'Chosen@24680', confirm_password: 'Chosen@24680' });
      expect(chosen.statusCode, chosen.body).toBe(200);
      expect(chosen.json()).toEqual({
        message: 'Your password is set and your email address verified. You can sign in now.',
      });
      expect((await post('login', { email, password: 'Chosen@24680' })).statusCode).toBe(200);
      expect(
        (await post('email-verify', { token, password: 'Other@24680', confirm_password: 'Other@24680' })).statusCode,
      ).toBe(400);
    },
  );

  it.skipIf(skip)(
    'checking a link needs a live verification link and reads the same under any spelling of its path',
    async () => {
      const { email, token } = await invite();
      const missing = await post('email-verify/check', {});
      expect(missing.statusCode).toBe(400);
      expect(Object.keys(missing.json().errors ?? {})).toContain('token');
      expect((await post('email-verify/check', { token: 'no-such-link-token-0000' })).statusCode).toBe(400);
      // A link of another kind (a password reset of another user) is no verification link.
      await post('forget_password', { email: 'admin@example.com' });
      const reset = await waitForMail('admin@example.com');
      expect(
        (await post('email-verify/check', { token: new URL(reset.links[0]!).searchParams.get('token')! })).statusCode,
      ).toBe(400);

      for (const url of [
        '/api/v1/email-verify/check',
        '/%61pi/v1/email-verify/check',
        '/api/v1/email-verify/%63heck',
      ]) {
        const answer = await server.app.inject({ method: 'POST', url, payload: { token } });
        expect(answer.json(), url).toEqual({ data: { valid: true, email, password_set: false } });
      }
      expect(
        (await server.app.inject({ method: 'POST', url: '/API/v1/email-verify/check', payload: { token } })).statusCode,
      ).toBe(404);
      await post('email-verify', { token, password: 'Chosen@24680', confirm_password: 'Chosen@24680' });
      expect((await post('email-verify/check', { token })).statusCode).toBe(400);
    },
  );

  it.skipIf(skip)(
    'an account given a password through the API keeps the plain verification, which sets no password',
    async () => {
      const { mail, token } = await invite({ password: 'Given@13579', confirm_password: 'Given@13579' });
      expect(mail.subject).toBe('Verify your e-mail address for the Trade Data administration console');
      expect((await post('email-verify/check', { token })).json().data.password_set).toBe(true);
      const refused = await post('email-verify', { token, password: 'Other@24680', confirm_password: 'Other@24680' });
      expect(refused.statusCode).toBe(400);
      expect((await post('email-verify', { token })).statusCode).toBe(200);
    },
  );
});
