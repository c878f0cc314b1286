import type { SessionAnswer } from '../../../contract/signIns.ts';
import type { Queryable } from '../../db/database.ts';
import { unauthorized } from '../../http/errors.ts';
import { describeBrowser } from './browser.ts';
import { defaultUrl } from './grants.ts';
import { loadUserGrants } from './session.ts';
import type { SignInClient } from './signIns.ts';
import { hashToken, newOpaqueToken, signAccessToken } from './tokens.ts';

export interface TokenPair {
  access: string;
  refresh: string;
}

export interface TokenSettings {
  secret: Uint8Array;
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
}

/** Starts a session (a refresh-token family with an absolute lifetime) and issues its first pair. */
export async function startSession(
  db: Queryable,
  userId: number,
  settings: TokenSettings,
  client: SignInClient,
): Promise<TokenPair & { sessionId: string }> {
  const [session] = await db.query<{ id: string }>(
    `INSERT INTO sessions (user_id, expires_at, last_used_at, client_address, user_agent)
     VALUES ($1, now() + $2 * interval '1 second', now(), $3, $4) RETURNING id`,
    [userId, settings.refreshTokenSeconds, client.address, client.userAgent],
  );
  return { ...(await issuePair(db, userId, session!.id, settings)), sessionId: session!.id };
}

/**
 * Rotation: a refresh token works once. Presenting one that was already used means it leaked (or the
 * client raced itself); either way the whole family is revoked and the caller must log in again.
 */
export async function rotateRefreshToken(
  db: Queryable,
  refresh: string,
  settings: TokenSettings,
  client: SignInClient,
): Promise<TokenPair> {
  const tokenHash = hashToken(refresh);
  const [used] = await db.query<{ session_id: string; user_id: number; live: boolean }>(
    `UPDATE refresh_tokens t SET used_at = now()
       FROM sessions s
      WHERE t.token_hash = $1 AND t.used_at IS NULL AND s.id = t.session_id
      RETURNING t.session_id, s.user_id, (s.revoked_at IS NULL AND s.expires_at > now()) AS live`,
    [tokenHash],
  );
  if (!used) {
    await db.query(
      `UPDATE sessions SET revoked_at = coalesce(revoked_at, now()) WHERE id = (SELECT session_id FROM refresh_tokens WHERE token_hash = $1)`,
      [tokenHash],
    );
    throw unauthorized('This session has ended. Please log in again.');
  }
  if (!used.live) throw unauthorized('This session has ended. Please log in again.');
  // "Last used" moves with each refresh (every few minutes while the console is open), not with every request.
  await db.query('UPDATE sessions SET last_used_at = now(), client_address = $2 WHERE id = $1', [
    used.session_id,
    client.address,
  ]);
  return issuePair(db, used.user_id, used.session_id, settings);
}

/** Ends a session: its refresh tokens stop working and so do its access tokens (checked on every request). */
export async function revokeSession(db: Queryable, sessionId: string): Promise<void> {
  await db.query('UPDATE sessions SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1', [sessionId]);
}

/** Ends the session of a refresh token; the user whose live session it ended, or null when it ended none. */
export async function revokeSessionOfRefreshToken(
  db: Queryable,
  refresh: string,
): Promise<{ userId: number; email: string } | null> {
  const [ended] = await db.query<{ user_id: number; email: string }>(
    `UPDATE sessions s SET revoked_at = now() FROM users u
      WHERE s.id = (SELECT session_id FROM refresh_tokens WHERE token_hash = $1) AND s.revoked_at IS NULL AND u.id = s.user_id
      RETURNING s.user_id, u.email`,
    [hashToken(refresh)],
  );
  return ended ? { userId: ended.user_id, email: ended.email } : null;
}

/** Ends every live session of the user but `except`; the ids of those it ended. */
export async function revokeAllSessions(db: Queryable, userId: number, except?: string): Promise<string[]> {
  const ended = await db.query<{ id: string }>(
    'UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL AND id <> $2::uuid RETURNING id',
    [userId, except || '00000000-0000-0000-0000-000000000000'],
  );
  return ended.map((row) => row.id);
}

/** Ends one live session of the user; false when they have no such live session. */
export async function revokeUserSession(db: Queryable, userId: number, sessionId: string): Promise<boolean> {
  const ended = await db.query(
    `UPDATE sessions SET revoked_at = now()
      WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > now() RETURNING id`,
    [sessionId, userId],
  );
  return ended.length === 1;
}

/** The user's live sessions, newest first; `current` marks the asking request's own. */
export async function listLiveSessions(
  db: Queryable,
  userId: number,
  currentSessionId: string,
  page: number,
  pageSize: number,
): Promise<{ data: SessionAnswer[]; total: number }> {
  const live = 'user_id = $1 AND revoked_at IS NULL AND expires_at > now()';
  const [rows, counted] = await Promise.all([
    db.query<Omit<SessionAnswer, 'browser' | 'current'>>(
      `SELECT id, created_at, coalesce(last_used_at, created_at) AS last_used_at, client_address, user_agent
         FROM sessions WHERE ${live} ORDER BY (id = $2) DESC, created_at DESC, id LIMIT $3 OFFSET $4`,
      [userId, currentSessionId || null, pageSize, (page - 1) * pageSize],
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM sessions WHERE ${live}`, [userId]),
  ]);
  return {
    data: rows.map((row) => ({
      ...row,
      browser: describeBrowser(row.user_agent).description,
      current: row.id === currentSessionId,
    })),
    total: Number(counted[0]?.total ?? 0),
  };
}

async function issuePair(
  db: Queryable,
  userId: number,
  sessionId: string,
  settings: TokenSettings,
): Promise<TokenPair> {
  const loaded = await loadUserGrants(db, userId);
  if (!loaded) throw unauthorized();
  const { user } = loaded;
  const { token: refresh, hash } = newOpaqueToken();
  await db.query('INSERT INTO refresh_tokens (token_hash, session_id) VALUES ($1, $2)', [hash, sessionId]);
  const access = await signAccessToken(
    settings.secret,
    {
      sub: String(user.id),
      role: user.roleName,
      sid: sessionId,
      first_name: user.firstName,
      last_name: user.lastName,
      default_url: defaultUrl(user.grants),
    },
    settings.accessTokenSeconds,
  );
  return { access, refresh };
}
