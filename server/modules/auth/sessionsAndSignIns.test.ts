import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionAnswer, SignInAnswer } from '../../../contract/signIns.ts';
import { SEED_ROLES } from '../../seed/roles.ts';
import { MODULE, entityResource } from '../../registry.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { purgeOldSignIns, SIGN_IN_HISTORY_DAYS } from './signIns.ts';

const databases = await testDatabases();
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const CHROME_NEWER = CHROME.replace('Chrome/126', 'Chrome/127');
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
type Headers = Record<string, string>;

describe.each(databases)('sessions people can see and end, and the sign-in history, on $kind', ({ kind, skip }) => {
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
    return { status: response.statusCode, body: response.json() as any };
  };
  const login = async (email: string, password: string, agent = CHROME) =>
    call('POST', 'login', { 'user-agent': agent }, { email, password });
  const bearer = (access: string) => ({ authorization: `Bearer ${access}` });
  /** A verified user of `role` made for one test, so its sessions and history are its own. */
  const newUser = async (role = 'Read Only') => {
    serial += 1;
    const email = `sessions.${serial}.${kind}@example.com`;
    const password = `Session@${serial}2468`;
    const [roleRow] = await server.db.query<{ id: number }>('SELECT id FROM roles WHERE name = $1', [role]);
    const created = await call('POST', 'users', admin, {
      first_name: 'Sam',
      last_name: 'Session',
      email,
      mobile: `91234${String(serial).padStart(5, '0')}`,
      role_id: roleRow!.id,
      password,
      confirm_password: password,
    });
    expect(created.status).toBe(201);
    return { id: Number(created.body.data.id), email, password };
  };
  const verify = (id: number) => server.db.query('UPDATE users SET email_verified_at = now() WHERE id = $1', [id]);
  const signedIn = async (email: string, password: string, agent = CHROME) => {
    const answer = await login(email, password, agent);
    expect(answer.status).toBe(200);
    return answer.body.data as { access: string; refresh: string };
  };
  const sessionsOf = async (headers: Headers, url = 'user/sessions') => {
    const answer = await call('GET', url, headers);
    expect(answer.status).toBe(200);
    return answer.body.data as SessionAnswer[];
  };
  const outcomes = async (headers: Headers, url = 'user/sign-ins') =>
    ((await call('GET', url, headers)).body.data as SignInAnswer[]).map((row) => row.outcome);

  it.skipIf(skip)(
    'GET user/sessions lists the live sessions with address, browser and times, the current one first and marked',
    async () => {
      const user = await newUser();
      await verify(user.id);
      const first = await signedIn(user.email, user.password, FIREFOX);
      const second = await signedIn(user.email, user.password, CHROME);
      const sessions = await sessionsOf(bearer(second.access));
      expect(sessions).toHaveLength(2);
      expect(sessions[0]).toMatchObject({
        current: true,
        browser: 'Chrome 126 on Windows',
        user_agent: CHROME,
        client_address: '127.0.0.1',
      });
      expect(sessions[1]).toMatchObject({ current: false, browser: 'Firefox 128 on Linux' });
      expect(Date.parse(sessions[0]!.created_at)).not.toBeNaN();
      const paged = await call('GET', 'user/sessions?_page=2&_page_size=1', bearer(second.access));
      expect(paged.body.meta).toEqual({ total: 2, page: 2, page_size: 1 });
      expect(paged.body.data[0].id).toBe(sessions[1]!.id);

      // "Last used" moves when the session's refresh token is used.
      await server.db.query(`UPDATE sessions SET last_used_at = now() - interval '1 hour' WHERE id = $1`, [
        sessions[1]!.id,
      ]);
      const before = (await sessionsOf(bearer(first.access)))[0]!.last_used_at;
      const refreshed = await call('POST', 'token/refresh', {}, { refresh: first.refresh });
      expect(refreshed.status).toBe(200);
      const after = (await sessionsOf(bearer(refreshed.body.data.access)))[0]!;
      expect(after.current).toBe(true);
      expect(Date.parse(after.last_used_at)).toBeGreaterThan(Date.parse(before));
    },
  );

  it.skipIf(skip)(
    'DELETE user/sessions/:id ends one: its refresh token is refused at once, its access token at its next request',
    async () => {
      const user = await newUser();
      await verify(user.id);
      const other = await signedIn(user.email, user.password, FIREFOX);
      const mine = await signedIn(user.email, user.password);
      expect((await call('GET', 'user/profile', bearer(other.access))).status).toBe(200);
      const otherId = (await sessionsOf(bearer(mine.access))).find((session) => !session.current)!.id;

      const ended = await call('DELETE', `user/sessions/${otherId}`, bearer(mine.access));
      expect(ended).toEqual({ status: 200, body: { message: 'The session has ended.' } });
      expect((await call('GET', 'user/profile', bearer(other.access))).status).toBe(401);
      expect((await call('POST', 'token/refresh', {}, { refresh: other.refresh })).status).toBe(401);
      expect((await sessionsOf(bearer(mine.access))).map((session) => session.id)).not.toContain(otherId);
      const [entry] = await server.db.query(
        `SELECT user_id, record_id, details FROM audit_log WHERE action = 'session_end' AND record_id = $1`,
        [user.id],
      );
      expect(entry).toEqual({ user_id: user.id, record_id: user.id, details: { sessions: [otherId] } });

      // Ended already, or another user's: no such live session of the caller.
      expect((await call('DELETE', `user/sessions/${otherId}`, bearer(mine.access))).status).toBe(404);
      const adminSession = (await sessionsOf(admin))[0]!.id;
      expect((await call('DELETE', `user/sessions/${adminSession}`, bearer(mine.access))).status).toBe(404);
      expect((await call('GET', 'user/profile', admin)).status).toBe(200);
      expect((await call('DELETE', 'user/sessions/not-a-session', bearer(mine.access))).status).toBe(400);
    },
  );

  it.skipIf(skip)('DELETE user/sessions signs out everywhere else and keeps the current session', async () => {
    const user = await newUser();
    await verify(user.id);
    const others = [await signedIn(user.email, user.password), await signedIn(user.email, user.password, FIREFOX)];
    const mine = await signedIn(user.email, user.password);
    const answer = await call('DELETE', 'user/sessions', bearer(mine.access));
    expect(answer).toEqual({ status: 200, body: { message: 'Signed out everywhere else: 2 other sessions ended.' } });
    for (const other of others) {
      expect((await call('GET', 'user/profile', bearer(other.access))).status).toBe(401);
      expect((await call('POST', 'token/refresh', {}, { refresh: other.refresh })).status).toBe(401);
    }
    expect((await sessionsOf(bearer(mine.access))).map((session) => session.current)).toEqual([true]);
    expect((await call('DELETE', 'user/sessions', bearer(mine.access))).body.message).toBe('You had no other session.');
  });

  it.skipIf(skip)('changing or resetting the password ends the other sessions', async () => {
    const user = await newUser('Data Operator');
    await verify(user.id);
    const other = await signedIn(user.email, user.password, FIREFOX);
    const mine = await signedIn(user.email, user.password);
    const changed = await call('POST', 'user/change-password', bearer(mine.access), {
      current_password: user.password,
      password: 'Changed@24680',
      confirm_password: 'Changed@24680',
    });
    expect(changed.status).toBe(200);
    expect((await call('GET', 'user/profile', bearer(other.access))).status).toBe(401);
    expect((await sessionsOf(bearer(mine.access))).map((session) => session.current)).toEqual([true]);

    expect((await call('POST', 'forget_password', {}, { email: user.email })).status).toBe(200);
    const [mail] = await server.db.query<{ body: string }>(
      `SELECT body FROM outbox WHERE recipient = $1 AND body LIKE '%reset-password?token=%' ORDER BY id DESC LIMIT 1`,
      [user.email],
    );
    const token = new URL(/https?:\/\/\S+token=\S+/.exec(mail!.body)![0]).searchParams.get('token');
    const reset = await call(
      'POST',
      'reset_password',
      {},
      { token, password: 'Reset@24680', confirm_password: 'Reset@24680' },
    );
    expect(reset.status).toBe(200);
    expect((await call('GET', 'user/profile', bearer(mine.access))).status).toBe(401);
    expect((await call('POST', 'token/refresh', {}, { refresh: mine.refresh })).status).toBe(401);
  });

  it.skipIf(skip)(
    'GET user/sign-ins lists every attempt on the account: success, wrong password, throttled, unverified',
    async () => {
      const user = await newUser();
      expect((await login(user.email, 'Wrong@13579')).status).toBe(401);
      expect((await login(user.email, user.password)).status).toBe(403);
      await verify(user.id);
      for (let attempt = 0; attempt < 5; attempt += 1) await login(user.email, 'Wrong@13579');
      // Locked for longer than the 5th failure's second, so the refusal does not depend on the machine's speed.
      await server.db.query(`UPDATE login_throttle SET locked_until = now() + interval '1 hour' WHERE account = $1`, [
        user.email,
      ]);
      expect((await login(user.email, user.password)).status).toBe(429);
      await server.db.query('DELETE FROM login_throttle WHERE account = $1', [user.email]);
      const tokens = await signedIn(user.email, user.password, FIREFOX);
      const history = await call('GET', 'user/sign-ins?_page_size=3', bearer(tokens.access));
      expect(history.body.meta).toEqual({ total: 9, page: 1, page_size: 3 });
      expect(history.body.data[0]).toMatchObject({
        outcome: 'success',
        client_address: '127.0.0.1',
        browser: 'Firefox 128 on Linux',
        user_agent: FIREFOX,
      });
      expect(await outcomes(bearer(tokens.access), 'user/sign-ins?_page_size=20')).toEqual([
        'success',
        'throttled',
        'wrong_password',
        'wrong_password',
        'wrong_password',
        'wrong_password',
        'wrong_password',
        'unverified',
        'wrong_password',
      ]);
      // Attempts on an address no account has are in no one's history.
      await login('nobody.sessions@example.com', 'Wrong@13579');
      const [strays] = await server.db.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM sign_ins s JOIN users u ON u.id = s.user_id WHERE u.email LIKE 'nobody%'`,
      );
      expect(strays!.count).toBe(0);
    },
  );

  it.skipIf(skip)(
    'a sign-in from a new browser e-mails the user; the first sign-in and a new version of a known browser do not',
    async () => {
      const user = await newUser();
      await verify(user.id);
      const newBrowserMails = () =>
        server.db.query<{ body: string }>(
          `SELECT body FROM outbox WHERE recipient = $1 AND subject LIKE 'A new sign-in%' ORDER BY id`,
          [user.email],
        );
      await signedIn(user.email, user.password, CHROME);
      await signedIn(user.email, user.password, CHROME_NEWER);
      expect(await newBrowserMails()).toEqual([]);
      await signedIn(user.email, user.password, FIREFOX);
      const mails = await newBrowserMails();
      expect(mails).toHaveLength(1);
      expect(mails[0]!.body).toContain('Firefox 128 on Linux, from 127.0.0.1');
      await signedIn(user.email, user.password, FIREFOX);
      expect(await newBrowserMails()).toHaveLength(1);
    },
  );

  it.skipIf(skip)(
    "an administrator sees a user's sessions and sign-ins and ends a session; USERS view_detail reads, edit ends",
    async () => {
      const user = await newUser();
      await verify(user.id);
      const tokens = await signedIn(user.email, user.password, FIREFOX);
      const sessions = await sessionsOf(admin, `users/${user.id}/sessions`);
      expect(sessions).toHaveLength(1);
      expect(sessions[0]).toMatchObject({ current: false, browser: 'Firefox 128 on Linux' });
      expect(await outcomes(admin, `users/${user.id}/sign-ins`)).toEqual(['success']);

      const viewer = await server.auth('Read Only');
      const sales = await server.auth('Sales Executive');
      expect((await call('GET', `users/${user.id}/sessions`, viewer)).status).toBe(200);
      expect((await call('GET', `users/${user.id}/sign-ins`, viewer)).status).toBe(200);
      expect((await call('DELETE', `users/${user.id}/sessions/${sessions[0]!.id}`, viewer)).status).toBe(403);
      expect((await call('GET', `users/${user.id}/sessions`, sales)).status).toBe(403);
      expect((await call('GET', `users/${user.id}/sign-ins`, sales)).status).toBe(403);
      expect((await call('GET', 'users/999999/sessions', admin)).status).toBe(404);
      expect((await call('GET', 'users/999999/sign-ins', admin)).status).toBe(404);
      // A session of someone else is not this user's.
      const adminSession = (await sessionsOf(admin))[0]!.id;
      expect((await call('DELETE', `users/${user.id}/sessions/${adminSession}`, admin)).status).toBe(404);

      const ended = await call('DELETE', `users/${user.id}/sessions/${sessions[0]!.id}`, admin);
      expect(ended.status).toBe(200);
      expect((await call('GET', 'user/profile', bearer(tokens.access))).status).toBe(401);
      expect((await call('POST', 'token/refresh', {}, { refresh: tokens.refresh })).status).toBe(401);
      expect(await sessionsOf(admin, `users/${user.id}/sessions`)).toEqual([]);
      const [entry] = await server.db.query(
        `SELECT user_id, record_id, details FROM audit_log WHERE action = 'session_end' AND record_id = $1`,
        [user.id],
      );
      expect(entry).toEqual({
        user_id: server.userIds.get('admin@example.com'),
        record_id: user.id,
        details: { sessions: [sessions[0]!.id] },
      });
    },
  );

  it.skipIf(skip)(
    "every seeded role: its own sessions and sign-ins need only a sign-in; a user's need USERS view_detail or edit",
    async () => {
      const target = server.userIds.get('viewer@example.com')!;
      const nobody = '00000000-0000-4000-8000-000000000000';
      const offered = entityResource(MODULE.users)!.actions;
      const problems: string[] = [];
      for (const role of SEED_ROLES) {
        const headers = await server.auth(role.name);
        const grants = role.permissions(MODULE.users, offered);
        const expected: Array<[method: 'GET' | 'DELETE', url: string, status: number]> = [
          ['GET', 'user/sessions', 200],
          ['GET', 'user/sign-ins', 200],
          ['DELETE', `user/sessions/${nobody}`, 404],
          ['GET', `users/${target}/sessions`, grants.includes('view_detail') ? 200 : 403],
          ['GET', `users/${target}/sign-ins`, grants.includes('view_detail') ? 200 : 403],
          ['DELETE', `users/${target}/sessions/${nobody}`, grants.includes('edit') ? 404 : 403],
        ];
        for (const [method, url, status] of expected) {
          const answer = await call(method, url, headers);
          if (answer.status !== status) problems.push(`${role.name} ${method} ${url}: ${answer.status}, not ${status}`);
        }
      }
      expect(problems).toEqual([]);
    },
  );

  it.skipIf(skip)(`the history keeps ${SIGN_IN_HISTORY_DAYS} days: older attempts are purged`, async () => {
    const user = await newUser();
    await server.db.query(
      `INSERT INTO sign_ins (user_id, at, outcome, browser_family) VALUES
         ($1, now() - make_interval(days => $2 + 1), 'wrong_password', 'Unknown browser'),
         ($1, now() - make_interval(days => $2 - 1), 'wrong_password', 'Unknown browser')`,
      [user.id, SIGN_IN_HISTORY_DAYS],
    );
    expect(await purgeOldSignIns(server.db)).toBeGreaterThanOrEqual(1);
    const [kept] = await server.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM sign_ins WHERE user_id = $1',
      [user.id],
    );
    expect(kept!.count).toBe(1);
  });
});
