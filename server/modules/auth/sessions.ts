import type { Queryable } from '../../db/database.ts';
import { unauthorized } from '../../http/errors.ts';
import { defaultUrl } from './grants.ts';
import { loadUserGrants } from './session.ts';
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
export async function startSession(db: Queryable, userId: number, settings: TokenSettings): Promise<TokenPair> {
  const [session] = await db.query<{ id: string }>(
    `INSERT INTO sessions (user_id, expires_at) VALUES ($1, now() + $2 * interval '1 second') RETURNING id`,
    [userId, settings.refreshTokenSeconds],
  );
  return issuePair(db, userId, session!.id, settings);
}

/**
 * Rotation: a refresh token works once. Presenting one that was already used means it leaked (or the
 * client raced itself); either way the whole family is revoked and the caller must log in again.
 */
export async function rotateRefreshToken(db: Queryable, refresh: string, settings: TokenSettings): Promise<TokenPair> {
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

export async function revokeAllSessions(db: Queryable, userId: number, except?: string): Promise<void> {
  await db.query(
    'UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL AND id <> $2::uuid',
    [userId, except ?? '00000000-0000-0000-0000-000000000000'],
  );
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
