import type { Queryable } from '../../db/database.ts';
import { conflict } from '../../http/errors.ts';
import { RESOURCES } from '../../registry.ts';
import { NARROWING_ACTIONS } from '../../../contract/modules.ts';

/**
 * Full access: every action of every resource, as the Super Admin role has (an area is open to whoever has one of
 * its resources). The narrowing actions (`executive_access`) are left out: they grant nothing.
 */
const FULL_ACCESS = RESOURCES.flatMap((resource) =>
  resource.actions.filter((action) => !NARROWING_ACTIONS.has(action)).map((action) => [resource.key, action] as const),
);

/** Any constant shared by every writer that can take full access away; it serialises them. */
const FULL_ACCESS_LOCK = 7_411_002;

export const LAST_FULL_ACCESS_MESSAGE =
  'This would leave no active user with full access (every module and action). Give another active user a role with full access first.';

/** Active users of active roles that hold every pair of FULL_ACCESS. */
async function fullAccessUsers(tx: Queryable): Promise<number> {
  const [row] = await tx.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM users u JOIN roles r ON r.id = u.role_id
      WHERE u.is_active AND r.is_active
        AND (SELECT count(*) FROM role_permissions p JOIN unnest($1::text[], $2::text[]) AS f(module, action)
               ON p.module = f.module AND p.action = f.action WHERE p.role_id = r.id) = $3`,
    [FULL_ACCESS.map(([module]) => module), FULL_ACCESS.map(([, action]) => action), FULL_ACCESS.length],
  );
  return row?.count ?? 0;
}

/**
 * Runs `write` (inside the caller's transaction) and refuses it with a 409 when it leaves no active user with full
 * access where there was one. Writers of users, roles and role permissions take one transaction-scoped lock first,
 * so two changes that would each leave the other's administrator as the last one cannot both pass.
 */
export async function keepingFullAccess<T>(tx: Queryable, write: () => Promise<T>): Promise<T> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [FULL_ACCESS_LOCK]);
  const before = await fullAccessUsers(tx);
  const result = await write();
  if (before > 0 && (await fullAccessUsers(tx)) === 0) throw conflict(LAST_FULL_ACCESS_MESSAGE);
  return result;
}

type GrantChecker = { can(module: string, action: string): boolean };

/** Grants are cached per role and version (GrantsCache), so each is checked against every pair once, not per request. */
const fullAccessOf = new WeakMap<GrantChecker, boolean>();

/** True when the grants hold full access, as the Super Admin role does. */
export function hasFullAccess(grants: GrantChecker): boolean {
  let full = fullAccessOf.get(grants);
  if (full === undefined) {
    full = FULL_ACCESS.every(([module, action]) => grants.can(module, action));
    fullAccessOf.set(grants, full);
  }
  return full;
}
