import type { PasswordHasher } from '../modules/auth/passwords.ts';
import type { Queryable } from '../db/database.ts';
import { MODULE, RESOURCES, ROLE_FIELDS, entityResource } from '../registry.ts';
import { quoted } from '../../codegen/sqlNames.ts';
import { replaceRoleGrants } from '../modules/users-and-roles/roles.ts';

export interface SeedRole {
  name: string;
  description: string;
  /** module -> actions; only actions the module offers are stored. */
  permissions: (module: string, actions: readonly string[]) => readonly string[];
}

const SELF_SERVICE = new Set<string>([MODULE.userProfile, MODULE.changePassword]);
const READ_ACTIONS = new Set(['view', 'view_detail', 'SUBSCRIBER_DETAIL']);
const DATA_MODULES = new Set<string>([
  MODULE.dataUploadLogs,
  MODULE.uploadedDataReport,
  MODULE.syncTrendingData,
  MODULE.dataFields,
  'CREATE_HS_CODE',
  'CREATE_RELATED_PRODUCT',
]);
const DATA_LOOKUPS = new Set(['COUNTRIES', 'HS_CODES', 'COUNTRY', 'DATA_TYPES']);
const SALES_ACTIONS = new Set([
  'view',
  'add',
  'edit',
  'download',
  'SUBSCRIBER_DETAIL',
  'ADD_SUBSCRIPTION',
  'ADD_TOP_UP',
  'executive_access',
]);

/** The demo roles (docs/demo-data.md). Super admin may do everything except be limited to assigned subscribers. */
export const SEED_ROLES: readonly SeedRole[] = [
  {
    name: 'Super Admin',
    description: 'Every module and action.',
    permissions: (_module, actions) => actions.filter((action) => action !== 'executive_access'),
  },
  {
    name: 'Sales Executive',
    description: 'Their own subscribers: add, edit, subscriptions and top-ups.',
    permissions: (module, actions) => {
      if (SELF_SERVICE.has(module)) return actions;
      if (module === MODULE.subscribers) return actions.filter((action) => SALES_ACTIONS.has(action));
      if (module === MODULE.subscriptionPlans || module === MODULE.executiveProfile)
        return actions.filter((action) => action === 'view' || action === 'view_detail');
      return [];
    },
  },
  {
    name: 'Data Operator',
    description: 'Data uploads, data columns, HS codes and trending data.',
    permissions: (module, actions) => {
      if (SELF_SERVICE.has(module) || DATA_MODULES.has(module)) return actions;
      if (DATA_LOOKUPS.has(module)) return actions.filter((action) => READ_ACTIONS.has(action));
      return [];
    },
  },
  {
    name: 'Read Only',
    description: 'Sees every module, changes nothing.',
    permissions: (module, actions) =>
      SELF_SERVICE.has(module)
        ? actions.filter((action) => action === 'view')
        : actions.filter((action) => READ_ACTIONS.has(action)),
  },
];

/** Creates a role (or finds it by name) and sets its permissions. Returns its id. */
export async function upsertRole(db: Queryable, role: SeedRole): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO roles (name) VALUES ($1) ON CONFLICT (name) DO UPDATE SET updated_at = roles.updated_at RETURNING id`,
    [role.name],
  );
  const id = row!.id;
  if (entityResource(MODULE.roles))
    await db.query(`UPDATE roles SET ${quoted(ROLE_FIELDS.description.field)} = $2 WHERE id = $1`, [
      id,
      role.description,
    ]);
  const grants = RESOURCES.flatMap((resource) =>
    role.permissions(resource.key, resource.actions).map((action) => ({ module: resource.key, action })),
  );
  await replaceRoleGrants(db, id, grants);
  return id;
}

export interface SeedUser {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  role: string;
}

/** One user per role, for the demo and the tests. The passwords are public: never seeded in production. */
export const DEMO_USERS: readonly SeedUser[] = [
  { email: 'admin@example.com', password: 'Admin@12345', firstName: 'Asha', lastName: 'Admin', role: 'Super Admin' },
  {
    email: 'sales@example.com',
    password: 'Sales@12345',
    firstName: 'Sunil',
    lastName: 'Sales',
    role: 'Sales Executive',
  },
  {
    email: 'operator@example.com',
    password: 'Operator@12345',
    firstName: 'Omar',
    lastName: 'Operator',
    role: 'Data Operator',
  },
  { email: 'viewer@example.com', password: 'Viewer@12345', firstName: 'Vera', lastName: 'Viewer', role: 'Read Only' },
];

/**
 * Creates a user with a role, or updates the existing one's password and role. Returns its id. The address counts as
 * verified: these are the demo users and the administrator an operator names with create-admin.
 */
export async function upsertUser(
  db: Queryable,
  passwords: PasswordHasher,
  user: SeedUser,
  roleId: number,
): Promise<number> {
  const hash = await passwords.hash(user.password);
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO users (email, first_name, last_name, mobile, role_id, password_hash, email_verified_at)
     VALUES ($1, $2, $3, '9876543210', $4, $5, now())
     ON CONFLICT (email) DO UPDATE SET password_hash = excluded.password_hash, role_id = excluded.role_id, is_active = true,
       email_verified_at = coalesce(users.email_verified_at, excluded.email_verified_at)
     RETURNING id`,
    [user.email.toLowerCase(), user.firstName, user.lastName, roleId, hash],
  );
  return row!.id;
}

/** The roles, then one user per role. Returns user ids by e-mail. */
export async function seedRolesAndUsers(db: Queryable, passwords: PasswordHasher): Promise<Map<string, number>> {
  const roleIds = new Map<string, number>();
  for (const role of SEED_ROLES) roleIds.set(role.name, await upsertRole(db, role));
  const userIds = new Map<string, number>();
  for (const user of DEMO_USERS)
    userIds.set(user.email, await upsertUser(db, passwords, user, roleIds.get(user.role)!));
  return userIds;
}
