import type { FastifyInstance } from 'fastify';
import { idParams } from '../../http/requestSchemas.ts';
import { currentUser, permission } from '../auth/access.ts';
import { errorAnswers } from '../../http/answers.ts';
import { IF_MATCH_HEADER, etagOf, expectedVersion, staleRecord } from '../../http/recordVersion.ts';
import { AREAS, MODULE, RESOURCES, actionsOf, resource } from '../../registry.ts';
import { permissionMapAnswer, permissionSetAnswers, permissionSetSchema, rolePermissionsBody } from './schemas.ts';
import { keepingFullAccess } from './fullAccess.ts';
import { replaceRoleGrants, roleGrants, roleVersion, type RoleGrant } from './roles.ts';
import { permissionMap } from '../auth/grants.ts';
import { actorOf, recordAudit } from '../audit/record.ts';
import type { FieldChanges } from '../../../contract/audit.ts';

/** Every module with the actions it offers: the areas (view), then their resources. */
const MODULES = [...AREAS.map((area) => area.key), ...RESOURCES.map((resource) => resource.key)].map((key) => ({
  key,
  actions: actionsOf(key),
}));

/** PERM-01 and the role permission sets edited through ROLES. */
export async function permissionRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const permissionSet = permissionSetSchema(MODULES);
  const answers = permissionSetAnswers(permissionSet);
  const tags = [resource(MODULE.roles)?.label ?? 'Roles'];

  // Built from the role on every call, so a change to the role shows on the user's next load.
  app.get('/user/permission', {
    config: { access: 'signed-in' },
    schema: {
      tags: ['Session'],
      operationId: 'getOwnPermissions',
      summary: "The caller's permissions",
      response: { 200: permissionMapAnswer, ...errorAnswers(401) },
    },
    handler: async (request) => ({ data: permissionMap(currentUser(request).grants) }),
  });

  app.get<{ Params: { id: number } }>('/roles/:id/permissions', {
    config: { access: permission(MODULE.roles, 'view') },
    schema: {
      tags,
      operationId: 'getRolePermissions',
      summary: "A role's permission set",
      params: idParams,
      response: { 200: answers.read, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      reply.header('etag', etagOf(await roleVersion(db, request.params.id)));
      const data: Record<string, string[]> = {};
      for (const grant of await roleGrants(db, request.params.id)) (data[grant.module] ??= []).push(grant.action);
      return { data };
    },
  });

  app.put<{ Params: { id: number }; Body: { permissions: Record<string, string[]> } }>('/roles/:id/permissions', {
    config: { access: permission(MODULE.roles, 'edit'), audit: { action: 'permissions' } },
    schema: {
      tags,
      operationId: 'replaceRolePermissions',
      summary: "Replace a role's permission set",
      description:
        "Applies when the role's users next load `user/permission`. `If-Match` is the role's version as read; any change to a permission set moves every role's version on.",
      params: idParams,
      headers: IF_MATCH_HEADER,
      body: rolePermissionsBody(permissionSet),
      response: { 200: answers.saved, ...errorAnswers(400, 401, 403, 404, 412, 428) },
    },
    handler: async (request, reply) => {
      const { id } = request.params;
      const expected = expectedVersion(request);
      // The full-access lock first, as every writer of users and roles takes it first; then the role's row, whose
      // versions the change moves (migration 008): no other role's.
      const version = await db.transaction((tx) =>
        keepingFullAccess(tx, async () => {
          const current = await roleVersion(tx, id, true);
          if (expected !== 'any' && !expected.versions.includes(current)) throw staleRecord('role');
          const grants = Object.entries(request.body.permissions).flatMap(([module, actions]) =>
            actions.map((action) => ({ module, action })),
          );
          const before = await replaceRoleGrants(tx, id, grants);
          await recordAudit(tx, actorOf(request), {
            module: MODULE.roles,
            recordId: id,
            action: 'permissions',
            ...grantChanges(before, request.body.permissions),
          });
          return roleVersion(tx, id);
        }),
      );
      reply.header('etag', etagOf(version));
      return {
        data: request.body.permissions,
        message: 'Permissions saved. Signed-in users of this role see the change at their next step.',
      };
    },
  });
}

/**
 * A permission set's change as an entry holds it: per module whose actions changed, its actions before -> after, and
 * the grants added and removed (`MODULE.action`) in the details.
 */
function grantChanges(
  before: readonly RoleGrant[],
  after: Record<string, string[]>,
): { changes: FieldChanges; details: Record<string, unknown> } {
  const had = new Set(before.map(({ module, action }) => `${module}.${action}`));
  const has = new Set(
    Object.entries(after).flatMap(([module, actions]) => actions.map((action) => `${module}.${action}`)),
  );
  const actionsOf = (grants: ReadonlySet<string>, module: string) =>
    [...grants]
      .filter((grant) => grant.startsWith(`${module}.`))
      .map((grant) => grant.slice(module.length + 1))
      .sort();
  const added = [...has].filter((grant) => !had.has(grant)).sort();
  const removed = [...had].filter((grant) => !has.has(grant)).sort();
  const changes: FieldChanges = {};
  for (const grant of [...added, ...removed]) {
    const module = grant.slice(0, grant.lastIndexOf('.'));
    changes[module] ??= { before: actionsOf(had, module), after: actionsOf(has, module) };
  }
  return { changes, details: { added, removed } };
}
