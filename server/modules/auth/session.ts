import type { TokenPermissions } from '../../../contract/apiTokens.ts';
import type { Queryable } from '../../db/database.ts';
import { Grants } from './grants.ts';
import { mustEnrolSql } from './twoFactor.ts';

/** The signed-in caller of a request, as the database says now (not as the token said at login). */
export interface SessionUser {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  roleId: number | null;
  roleName: string | null;
  /** The session's id; empty for a request made with an API token, which has none. */
  sessionId: string;
  grants: Grants;
  /**
   * The version of the grants as read for this request: the role and its grants version, or nothing granted (`0.0`).
   * It moves whenever what the user may do may have changed (their role, its state or its permission set).
   */
  permissionsVersion: string;
  /** The data version (migration 005) read with the session: what cached responses must have been read at. */
  dataVersion: number;
  /** The role requires a second factor the user has not enrolled: only enrolment routes answer (`enrolling`). */
  mustEnrol: boolean;
  /** The API token the request came with, acting for the user who made it (null: the user signed in). */
  apiToken: { id: number; name: string } | null;
}

interface UserRow extends Record<string, unknown> {
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  role_id: number | null;
  role_name: string | null;
  role_active: boolean | null;
  grants_version: number | null;
  data_version: number;
  must_enrol: boolean;
}

const NO_GRANTS = new Grants([]);
/** Far more than the roles any deployment has; past it the cache starts over rather than grow. */
const MAX_CACHED_ROLES = 1000;

/**
 * Permission sets by role, each under the version it was read at (migration 004). An entry is used only when
 * the version the request's own session query just read from the database equals it, so a permission change
 * takes effect on the next request on every instance; the memory only saves re-reading an unchanged set.
 */
export class GrantsCache {
  private readonly roles = new Map<number, { version: number; grants: Grants }>();

  async of(db: Queryable, row: Pick<UserRow, 'role_id' | 'role_active' | 'grants_version'>): Promise<Grants> {
    if (row.role_id === null || !row.role_active || row.grants_version === null) return NO_GRANTS;
    const cached = this.roles.get(row.role_id);
    if (cached?.version === row.grants_version) return cached.grants;
    const [loaded] = await db.query<{ grants_version: number; pairs: string[] | null }>(
      `SELECT r.grants_version, (SELECT array_agg(p.module || ':' || p.action) FROM role_permissions p WHERE p.role_id = r.id) AS pairs
         FROM roles r WHERE r.id = $1`,
      [row.role_id],
    );
    if (!loaded) return NO_GRANTS;
    const grants = new Grants(loaded.pairs ?? []);
    if (this.roles.size >= MAX_CACHED_ROLES) this.roles.clear();
    // Filed under the version read with the set itself: if it moved on since the session query, the next request reloads.
    this.roles.set(row.role_id, { version: loaded.grants_version, grants });
    return grants;
  }
}

const USER_COLUMNS = `u.id, u.email, u.first_name, u.last_name, u.role_id, r.name AS role_name, r.is_active AS role_active, r.grants_version,
  (SELECT version FROM data_version) AS data_version, ${mustEnrolSql('u.id', 'r')} AS must_enrol`;

/** A session as an access token names it: its id and its user's. */
export interface SessionKey {
  sessionId: string;
  userId: number;
}

/**
 * The users of live sessions, in the order of `keys` (null where the session is revoked, expired, not that user's,
 * or the user inactive), with their roles' grants: one indexed statement for them all (each session by primary key,
 * its user, their role and its grants version, and the data version); permission sets come from `cache` when the
 * version matches.
 */
export async function loadSessionUsers(
  db: Queryable,
  cache: GrantsCache,
  keys: readonly SessionKey[],
): Promise<Array<SessionUser | null>> {
  const rows = await db.query<UserRow & { place: number }>(
    `SELECT k.place::int AS place, ${USER_COLUMNS}
       FROM unnest($1::uuid[], $2::bigint[]) WITH ORDINALITY AS k(session_id, user_id, place)
       JOIN sessions s ON s.id = k.session_id AND s.user_id = k.user_id
       JOIN users u ON u.id = s.user_id
       LEFT JOIN roles r ON r.id = u.role_id
      WHERE s.revoked_at IS NULL AND s.expires_at > now() AND u.is_active`,
    [keys.map((key) => key.sessionId), keys.map((key) => key.userId)],
  );
  const users = keys.map((): SessionUser | null => null);
  for (const row of rows) {
    const place = row.place - 1;
    users[place] = toSessionUser(row, keys[place]!.sessionId, await cache.of(db, row));
  }
  return users;
}

/**
 * The caller of a request made with an API token (by the SHA-256 of its secret): the token's creator, narrowed to the
 * module actions the token names that their role still grants; null when the token is unknown, revoked or expired,
 * or its creator is inactive. `excluded`: modules no token may reach, whatever it names.
 */
export async function loadTokenUser(
  db: Queryable,
  cache: GrantsCache,
  tokenHash: string,
  excluded: ReadonlySet<string>,
): Promise<SessionUser | null> {
  const [row] = await db.query<UserRow & { token_id: number; token_name: string; permissions: TokenPermissions }>(
    `SELECT ${USER_COLUMNS}, t.id::int AS token_id, t.name AS token_name, t.permissions
       FROM api_tokens t
       JOIN users u ON u.id = t.created_by
       LEFT JOIN roles r ON r.id = u.role_id
      WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > now() AND u.is_active`,
    [tokenHash],
  );
  if (!row) return null;
  const grants = (await cache.of(db, row)).narrowedTo(row.permissions, excluded);
  return {
    // No session: what reads the caller's session (the current one kept, listed first) finds none.
    ...toSessionUser(row, '', grants),
    // The person enrolled a second factor when their role required one; a token is not asked for one.
    mustEnrol: false,
    apiToken: { id: row.token_id, name: row.token_name },
  };
}

export async function loadUserGrants(
  db: Queryable,
  userId: number,
): Promise<{ user: Omit<SessionUser, 'sessionId'> } | null> {
  const [row] = await db.query<UserRow>(
    `SELECT ${USER_COLUMNS} FROM users u LEFT JOIN roles r ON r.id = u.role_id WHERE u.id = $1`,
    [userId],
  );
  return row ? { user: toSessionUser(row, '', await new GrantsCache().of(db, row)) } : null;
}

/** Writes that a token was used now (the caller writes it at most once a minute per token). */
export async function touchApiToken(db: Queryable, tokenId: number): Promise<void> {
  await db.query('UPDATE api_tokens SET last_used_at = now() WHERE id = $1', [tokenId]);
}

function toSessionUser(row: UserRow, sessionId: string, grants: Grants): SessionUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name ?? '',
    lastName: row.last_name ?? '',
    roleId: row.role_id,
    roleName: row.role_name,
    sessionId,
    grants,
    permissionsVersion:
      row.role_id !== null && row.role_active && row.grants_version !== null
        ? `${row.role_id}.${row.grants_version}`
        : '0.0',
    dataVersion: Number(row.data_version),
    mustEnrol: row.must_enrol === true,
    apiToken: null,
  };
}
