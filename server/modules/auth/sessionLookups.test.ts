import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../db/database.ts';
import { DEMO_USERS } from '../../seed/roles.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { SessionLookups } from './sessionLookups.ts';

const databases = await testDatabases();

/** The session statement, told apart from the grants reads and everything else a request runs. */
const isSessionLookup = (sql: string) => sql.includes('WITH ORDINALITY AS k(session_id, user_id, place)');

/**
 * Session checks of requests arriving together share one statement; each request still gets its own caller, and a
 * session that is not valid (logged out, another user's, a malformed id) gets none, whatever else is in the batch.
 */
describe.each(databases)('session checks answered together on $kind', ({ kind, skip }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (!skip) server = await startTestServer(kind);
  });
  afterAll(async () => server?.close());

  const sessionOf = (access: string) => {
    const claims = decodeJwt(access);
    return { sessionId: String(claims.sid), userId: Number(claims.sub) };
  };

  it.skipIf(skip)('checks made in the same turn are one statement, each answered as its own session', async () => {
    const statements: string[] = [];
    const counting: Queryable = {
      query: (sql, params) => {
        statements.push(sql);
        return server.db.query(sql, params);
      },
    } as Queryable;
    const lookups = new SessionLookups(counting);
    const sessions = await Promise.all(
      DEMO_USERS.map(async ({ email }) => sessionOf((await server.login(email)).access)),
    );
    const loggedOut = sessionOf((await server.login('admin@example.com')).access);
    await server.db.query('UPDATE sessions SET revoked_at = now() WHERE id = $1', [loggedOut.sessionId]);
    const [first, second] = sessions;

    const answers = await Promise.all([
      ...sessions.map(({ sessionId, userId }) => lookups.user(sessionId, userId)),
      lookups.user(loggedOut.sessionId, loggedOut.userId),
      lookups.user(first!.sessionId, second!.userId),
      lookups.user('not-a-session-id', first!.userId),
    ]);

    expect(statements.filter(isSessionLookup)).toHaveLength(1);
    expect(answers.slice(0, sessions.length).map((user) => user?.email)).toEqual(DEMO_USERS.map((user) => user.email));
    expect(answers.slice(0, sessions.length).map((user) => user?.sessionId)).toEqual(
      sessions.map((session) => session.sessionId),
    );
    expect(answers.slice(sessions.length)).toEqual([null, null, null]);

    // The next turn's checks are a statement of their own, read after they came in: the revocation in between holds.
    await server.db.query('UPDATE sessions SET revoked_at = now() WHERE id = $1', [first!.sessionId]);
    expect(await lookups.user(first!.sessionId, first!.userId)).toBeNull();
    expect((await lookups.user(second!.sessionId, second!.userId))?.email).toBe(DEMO_USERS[1]!.email);
    expect(statements.filter(isSessionLookup)).toHaveLength(3);
  });

  it.skipIf(skip)('a failed statement fails every check in it, and the next ones run afresh', async () => {
    let failing = true;
    const flaky: Queryable = {
      query: (sql, params) =>
        failing && isSessionLookup(sql) ? Promise.reject(new Error('connection lost')) : server.db.query(sql, params),
    } as Queryable;
    const lookups = new SessionLookups(flaky);
    const session = sessionOf((await server.login('operator@example.com')).access);
    const failed = await Promise.allSettled([
      lookups.user(session.sessionId, session.userId),
      lookups.user(session.sessionId, session.userId),
    ]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    failing = false;
    expect((await lookups.user(session.sessionId, session.userId))?.email).toBe('operator@example.com');
  });

  it.skipIf(skip)('requests of several people at once are each answered as their own caller', async () => {
    const people = DEMO_USERS.map((user) => user.email);
    const headers = await Promise.all(people.map((email) => server.auth(email)));
    const loggedOut = await server.login('sales@example.com');
    await server.app.inject({
      method: 'POST',
      url: '/api/v1/logout',
      headers: { authorization: `Bearer ${loggedOut.access}` },
      payload: {},
    });
    const profiles = await Promise.all(
      [...headers, ...headers, { authorization: `Bearer ${loggedOut.access}` }].map((authorization) =>
        server.app.inject({ method: 'GET', url: '/api/v1/user/profile', headers: authorization }),
      ),
    );
    expect(profiles.map((response) => response.statusCode)).toEqual([...people, ...people].map(() => 200).concat(401));
    expect(
      profiles.slice(0, -1).map((response) => (response.json() as { data: { email: string } }).data.email),
    ).toEqual([...people, ...people]);
  });
});
