import type { Queryable } from '../db/database.ts';
import { Grants } from '../permissions/grants.ts';

/** The signed-in caller of a request, as the database says now (not as the token said at login). */
export interface SessionUser {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  roleId: number | null;
  roleName: string | null;
  sessionId: string;
  grants: Grants;
}

interface SessionRow extends Record<string, unknown> {
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  role_id: number | null;
  role_name: string | null;
  grants: string[] | null;
}

/** The user of a live session: not revoked, not expired, the user active. Its role's grants come along. */
export async function loadSessionUser(db: Queryable, sessionId: string, userId: number): Promise<SessionUser | null> {
  const [row] = await db.query<SessionRow>(
    `SELECT u.id, u.email, u.first_name, u.last_name, u.role_id, r.name AS role_name,
            (SELECT array_agg(p.module || ':' || p.action) FROM role_permissions p WHERE p.role_id = r.id AND r.is_active) AS grants
       FROM sessions s
       JOIN users u ON u.id = s.user_id
       LEFT JOIN roles r ON r.id = u.role_id
      WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > now() AND u.is_active`,
    [sessionId, userId],
  );
  return row ? toSessionUser(row, sessionId) : null;
}

export async function loadUserGrants(db: Queryable, userId: number): Promise<{ user: Omit<SessionUser, 'sessionId'> } | null> {
  const [row] = await db.query<SessionRow>(
    `SELECT u.id, u.email, u.first_name, u.last_name, u.role_id, r.name AS role_name,
            (SELECT array_agg(p.module || ':' || p.action) FROM role_permissions p WHERE p.role_id = r.id AND r.is_active) AS grants
       FROM users u LEFT JOIN roles r ON r.id = u.role_id WHERE u.id = $1`,
    [userId],
  );
  return row ? { user: toSessionUser(row, '') } : null;
}

function toSessionUser(row: SessionRow, sessionId: string): SessionUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name ?? '',
    lastName: row.last_name ?? '',
    roleId: row.role_id,
    roleName: row.role_name,
    sessionId,
    grants: new Grants(row.grants ?? []),
  };
}
