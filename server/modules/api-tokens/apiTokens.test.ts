import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_LIMITS, API_TOKEN_PREFIX } from '../../../contract/apiTokens.ts';
import { spellings } from '../../testing/pathSpellings.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';

const databases = await testDatabases();
const DAY_MS = 86_400_000;

type Headers = Record<string, string>;
interface Answer {
  data: Record<string, unknown> & { id: number; token: string };
  meta?: { total: number; page: number; page_size: number };
  message?: string;
  errors?: Record<string, string>;
}

describe.each(databases)('API tokens on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Headers;
  let sales: Headers;
  let viewer: Headers;
  let operator: Headers;
  let serial = 0;
  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    headers: Headers,
    body?: object,
  ) => {
    const response = await server.app.inject({
      method,
      url: url.startsWith('/') ? url : `/api/v1/${url}`,
      headers,
      ...(body === undefined ? {} : { payload: body }),
    });
    return {
      status: response.statusCode,
      body: (response.body.startsWith('{') ? response.json() : {}) as Answer,
      text: response.body,
      headers: response.headers,
    };
  };
  const bearer = (token: string): Headers => ({ authorization: `Bearer ${token}` });
  const make = async (permissions: Record<string, string[]>, by: Headers = admin, days = 30) =>
    call('POST', 'api-tokens', by, {
      name: `Integration ${(serial += 1)}`,
      permissions,
      expires_at: new Date(Date.now() + days * DAY_MS).toISOString(),
    });
  const grant = async (role: string, module: string, actions: string[]) => {
    for (const action of actions)
      await server.db.query(
        `INSERT INTO role_permissions (role_id, module, action) SELECT id, $2, $3 FROM roles WHERE name = $1 ON CONFLICT DO NOTHING`,
        [role, module, action],
      );
  };

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind, {}, { demoSubscribers: 40 });
    admin = await server.auth('Super Admin');
    sales = await server.auth('Sales Executive');
    viewer = await server.auth('Read Only');
    operator = await server.auth('Data Operator');
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)('shows the secret once, keeps only its hash, and lists the token without it', async () => {
    const made = await make({ VOUCHER: ['view'] });
    expect(made.status).toBe(201);
    const secret = made.body.data.token;
    expect(secret.startsWith(API_TOKEN_PREFIX)).toBe(true);
    expect(secret.length).toBeGreaterThan(40);
    expect(made.body.data).toMatchObject({ prefix: secret.slice(0, API_TOKEN_PREFIX.length + 4), status: 'active' });
    const [stored] = await server.db.query<{ token_hash: string; row: string }>(
      'SELECT token_hash, row_to_json(t)::text AS row FROM api_tokens t WHERE id = $1',
      [made.body.data.id],
    );
    expect(stored!.token_hash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(stored!.row).not.toContain(secret);
    const listed = await call('GET', 'api-tokens?_page_size=200', admin);
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(secret);
    const mine = (listed.body.data as unknown as Array<Record<string, unknown>>).find(
      (token) => token.id === made.body.data.id,
    );
    expect(mine).toMatchObject({
      name: made.body.data.name,
      permissions: { VOUCHER: ['view'] },
      created_by_email: 'admin@example.com',
      last_used_at: null,
      status: 'active',
    });
    expect(mine).not.toHaveProperty('token');
  });

  it.skipIf(skip)('a token may do what it names and nothing else, as its creator would', async () => {
    const { token } = (await make({ VOUCHER: ['view'], SUBSCRIBERS: ['view'] })).body.data;
    expect((await call('GET', 'vouchers?_page_size=1', bearer(token))).status).toBe(200);
    expect((await call('GET', 'subscribers?_page_size=1', bearer(token))).status).toBe(200);
    // Its creator may add vouchers and see users; the token was not given either.
    expect((await call('POST', 'vouchers', bearer(token), {})).status).toBe(403);
    expect((await call('GET', 'users', bearer(token))).status).toBe(403);
    // Nor may it manage tokens, or reach a person's own routes.
    expect((await call('GET', 'api-tokens', bearer(token))).status).toBe(403);
    expect((await call('GET', 'user/permission', bearer(token))).status).toBe(403);
    expect((await call('GET', 'user/profile', bearer(token))).status).toBe(403);
    // Its last use is written.
    const [used] = await server.db.query<{ last_used_at: unknown }>(
      'SELECT last_used_at FROM api_tokens WHERE token_hash = $1',
      [createHash('sha256').update(token).digest('hex')],
    );
    expect(used!.last_used_at).not.toBeNull();
  });

  it.skipIf(skip)('a token is refused with a 401 once revoked, expired, or its creator deactivated', async () => {
    const revoked = (await make({ VOUCHER: ['view'] })).body.data;
    expect((await call('GET', 'vouchers', bearer(revoked.token))).status).toBe(200);
    const revoking = await call('DELETE', `api-tokens/${revoked.id}`, admin);
    expect(revoking.status).toBe(200);
    expect(revoking.body.data).toMatchObject({ status: 'revoked' });
    expect((await call('GET', 'vouchers', bearer(revoked.token))).status).toBe(401);
    expect((await call('DELETE', `api-tokens/${revoked.id}`, admin)).status).toBe(409);
    expect((await call('DELETE', 'api-tokens/999999', admin)).status).toBe(404);

    const expired = (await make({ VOUCHER: ['view'] })).body.data;
    await server.db.query(`UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.id]);
    expect((await call('GET', 'vouchers', bearer(expired.token))).status).toBe(401);
    const listed = await call('GET', 'api-tokens?_page_size=200', admin);
    expect(
      (listed.body.data as unknown as Array<{ id: number; status: string }>).find((t) => t.id === expired.id),
    ).toMatchObject({ status: 'expired' });

    // A token made by a user later deactivated stops with them.
    await grant('Read Only', 'API_TOKENS', ['add']);
    const ofViewer = (await make({ VOUCHER: ['view'] }, viewer)).body.data;
    expect((await call('GET', 'vouchers', bearer(ofViewer.token))).status).toBe(200);
    await server.db.query(`UPDATE users SET is_active = false WHERE email = 'viewer@example.com'`);
    try {
      expect((await call('GET', 'vouchers', bearer(ofViewer.token))).status).toBe(401);
    } finally {
      await server.db.query(`UPDATE users SET is_active = true WHERE email = 'viewer@example.com'`);
    }
    expect((await call('GET', 'vouchers', bearer(`${API_TOKEN_PREFIX}made-up`))).status).toBe(401);
  });

  it.skipIf(skip)(
    'a token never has more than its creator: what the role lacks is refused, and taken away later',
    async () => {
      await grant('Read Only', 'API_TOKENS', ['add']);
      const beyond = await make({ VOUCHER: ['view', 'edit'] }, viewer);
      expect(beyond.status).toBe(400);
      expect(beyond.body.errors?.permissions).toContain('VOUCHER edit');
      const unknown = await make({ NOT_A_MODULE: ['view'] });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors?.permissions).toContain('NOT_A_MODULE');
      const noAction = await make({ VOUCHER: ['fly'] });
      expect(noAction.status).toBe(400);
      expect(noAction.body.errors?.permissions).toContain('fly');
      const ofTokens = await make({ API_TOKENS: ['view'] });
      expect(ofTokens.status).toBe(400);
      expect(ofTokens.body.errors?.permissions).toContain('API tokens');
      // A person's own account stays theirs: no token changes its creator's profile or password.
      for (const own of [{ USER_PROFILE: ['edit'] }, { CHANGE_PASSWORD: ['edit'] }] as Array<
        Record<string, string[]>
      >) {
        const refused = await make(own);
        expect(refused.status, JSON.stringify(own)).toBe(400);
        expect(refused.body.errors?.permissions).toContain('no token reaches');
      }

      // The role loses an action after the token was made: the token loses it at once.
      await grant('Read Only', 'COUNTRIES', ['view']);
      const token = (await make({ COUNTRIES: ['view'] }, viewer)).body.data.token;
      expect((await call('GET', 'countries', bearer(token))).status).toBe(200);
      await server.db.query(
        `DELETE FROM role_permissions WHERE module = 'COUNTRIES' AND action = 'view' AND role_id = (SELECT id FROM roles WHERE name = 'Read Only')`,
      );
      try {
        expect((await call('GET', 'countries', bearer(token))).status).toBe(403);
      } finally {
        await grant('Read Only', 'COUNTRIES', ['view']);
      }
    },
  );

  it.skipIf(skip)(
    "an executive's token sees only the executive's subscribers, whether it names that or not",
    async () => {
      await grant('Sales Executive', 'API_TOKENS', ['view', 'add']);
      const token = (await make({ SUBSCRIBERS: ['view'] }, sales)).body.data.token;
      const ids = async (headers: Headers) =>
        ((await call('GET', 'subscribers?_page_size=100', headers)).body.data as unknown as Array<{ id: number }>)
          .map((row) => row.id)
          .sort((a, b) => a - b);
      const theirs = await ids(sales);
      const all = await ids(admin);
      expect(theirs.length).toBeGreaterThan(0);
      expect(theirs.length).toBeLessThan(all.length);
      expect(await ids(bearer(token))).toEqual(theirs);
      // Another executive's subscriber is not found through the token either.
      const other = all.find((id) => !theirs.includes(id))!;
      expect((await call('GET', `subscribers/${other}`, bearer(token))).status).toBe(404);
    },
  );

  it.skipIf(skip)(
    "a token of a user administrator lists a user's sessions and sets its creator's password",
    async () => {
      const { token } = (await make({ USERS: ['view', 'view_detail', 'edit'] })).body.data;
      const adminId = server.userIds.get('admin@example.com')!;
      const sessions = await call('GET', `users/${adminId}/sessions`, bearer(token));
      expect(sessions.status).toBe(200);
      expect((sessions.body.data as unknown as Array<{ current: boolean }>).every((session) => !session.current)).toBe(
        true,
      );
      const before = await call('GET', `users/${adminId}`, bearer(token));
      const changed = await call(
        'PATCH',
        `users/${adminId}`,
        {
          ...bearer(token),
          'if-match': String(before.headers.etag),
          'content-type': 'application/merge-patch+json',
        },
        { password: 'Admin@12345', confirm_password: 'Admin@12345' },
      );
      expect(changed.status, changed.text).toBe(200);
      // A new password ends every session of the user: the token kept none of its own.
      expect((await call('GET', 'vouchers?_page_size=1', admin)).status).toBe(401);
      admin = { authorization: `Bearer ${(await server.login('Super Admin')).access}` };
    },
  );

  it.skipIf(skip)('a change made with a token is audited under its name and its creator', async () => {
    const made = (await make({ LOOKUP_TYPES: ['view', 'add'] })).body.data;
    const created = await call('POST', 'lookup-types', bearer(made.token), {
      code: `tok_${serial}`,
      name: 'By a token',
    });
    expect(created.status).toBe(201);
    const [entry] = await server.db.query<{ user_id: number; user_email: string; api_token: string }>(
      `SELECT user_id::int AS user_id, user_email, api_token FROM audit_log WHERE module = 'LOOKUP_TYPES' AND action = 'create' ORDER BY id DESC LIMIT 1`,
    );
    expect(entry).toEqual({
      user_id: server.userIds.get('admin@example.com'),
      user_email: 'admin@example.com',
      api_token: made.name,
    });
    const log = await call('GET', 'audit-log?module=LOOKUP_TYPES&action=create', admin);
    expect((log.body.data as unknown as Array<{ api_token: string | null }>)[0]).toMatchObject({
      api_token: made.name,
    });
    // Making and revoking tokens are audited too.
    const [madeEntry] = await server.db.query<{ action: string }>(
      `SELECT action FROM audit_log WHERE module = 'API_TOKENS' AND record_id = $1`,
      [made.id],
    );
    expect(madeEntry).toEqual({ action: 'create' });
  });

  it.skipIf(skip)('each token is held to its requests a minute with a 429 saying when to try again', async () => {
    const token = (await make({ VOUCHER: ['view'] })).body.data.token;
    const other = (await make({ VOUCHER: ['view'] })).body.data.token;
    let refused: Awaited<ReturnType<typeof call>> | null = null;
    for (let sent = 0; sent <= API_TOKEN_LIMITS.requestsPerMinute && !refused; sent += 1) {
      const answer = await call('GET', 'vouchers?_page_size=1', bearer(token));
      if (answer.status === 429) refused = answer;
      else expect(answer.status).toBe(200);
    }
    expect(refused?.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused?.body.message).toContain('this minute');
    // Another token, and people, are not held by it.
    expect((await call('GET', 'vouchers?_page_size=1', bearer(other))).status).toBe(200);
    expect((await call('GET', 'vouchers?_page_size=1', admin)).status).toBe(200);
  });

  it.skipIf(skip)(
    'refuses a bad request by field, and a caller without the permission, however the path is spelled',
    async () => {
      const bad = await call('POST', 'api-tokens', admin, { name: ' ', permissions: {}, expires_at: 'soon' });
      expect(bad.status).toBe(400);
      const past = await make({ VOUCHER: ['view'] }, admin, -1);
      expect(past.status).toBe(400);
      expect(past.body.errors).toHaveProperty('expires_at');
      const tooLong = await make({ VOUCHER: ['view'] }, admin, API_TOKEN_LIMITS.maxDays + 2);
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.errors?.expires_at).toContain(String(API_TOKEN_LIMITS.maxDays));

      for (const path of spellings('/api/v1/api-tokens')) {
        const anonymous = await call('GET', path, {});
        expect([401, 404], `${path} without a token`).toContain(anonymous.status);
        const refused = await call('GET', path, operator);
        expect([403, 404], `${path} as a role without API_TOKENS view`).toContain(refused.status);
      }
      const someone = (await make({ VOUCHER: ['view'] })).body.data;
      for (const path of spellings(`/api/v1/api-tokens/${someone.id}`)) {
        expect([401, 404], `DELETE ${path} without a token`).toContain((await call('DELETE', path, {})).status);
        expect([403, 404], `DELETE ${path} as Read Only`).toContain((await call('DELETE', path, viewer)).status);
      }
      expect((await call('GET', 'vouchers', bearer(someone.token))).status).toBe(200);
    },
  );
});
