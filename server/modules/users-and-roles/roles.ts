import type { Queryable } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';

/** One grant of a role's permission set: an action of a module. */
export interface RoleGrant {
  module: string;
  action: string;
}

/** Whether a role of this id exists. */
export async function roleExists(db: Queryable, id: number): Promise<boolean> {
  return (await db.query('SELECT 1 FROM roles WHERE id = $1', [id])).length > 0;
}

/**
 * The role's record version, which its permission set shares: the ETag of both. `forUpdate` holds the role's row until
 * the transaction ends, for a change of its permission set.
 */
export async function roleVersion(db: Queryable, id: number, forUpdate = false): Promise<number> {
  const [role] = await db.query<{ version: number }>(
    `SELECT version FROM roles WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  if (!role) throw notFound('Role');
  return role.version;
}

/** A role's permission set, by module then action. */
export async function roleGrants(db: Queryable, roleId: number): Promise<RoleGrant[]> {
  return db.query<{ module: string; action: string }>(
    'SELECT module, action FROM role_permissions WHERE role_id = $1 ORDER BY module, action',
    [roleId],
  );
}

/** Replaces a role's permission set with `grants`; returns the set it had. */
export async function replaceRoleGrants(
  tx: Queryable,
  roleId: number,
  grants: readonly RoleGrant[],
): Promise<RoleGrant[]> {
  const before = await tx.query<{ module: string; action: string }>(
    'DELETE FROM role_permissions WHERE role_id = $1 RETURNING module, action',
    [roleId],
  );
  if (grants.length > 0) {
    await tx.query(
      'INSERT INTO role_permissions (role_id, module, action) SELECT $1, m, a FROM unnest($2::text[], $3::text[]) AS p(m, a)',
      [roleId, grants.map(({ module }) => module), grants.map(({ action }) => action)],
    );
  }
  return before;
}
