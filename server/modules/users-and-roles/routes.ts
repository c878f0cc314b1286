import type { FastifyInstance } from 'fastify';
import { idParams } from '../../http/requestSchemas.ts';
import { currentUser, permission } from '../auth/access.ts';
import { errorAnswers } from '../../http/answers.ts';
import { notFound } from '../../http/errors.ts';
import { IF_MATCH_HEADER, etagOf, expectedVersion, staleRecord } from '../../http/recordVersion.ts';
import type { Queryable } from '../../db/database.ts';
import { AREAS, MODULE, RESOURCES, actionsOf, resource } from '../../registry.ts';
import { permissionMapAnswer, permissionSetAnswers, permissionSetSchema, rolePermissionsBody } from './schemas.ts';
import { keepingFullAccess } from './fullAccess.ts';
import { permissionMap } from '../auth/grants.ts';

/** Every module with the actions it offers: the areas (view), then their resources. */
const MODULES = [...AREAS.map((area) => area.key), ...RESOURCES.map((resource) => resource.key)].map((key) => ({ key, actions: actionsOf(key) }));

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
      summary: 'The caller\'s permissions',
      response: { 200: permissionMapAnswer, ...errorAnswers(401) },
    },
    handler: async (request) => ({ data: permissionMap(currentUser(request).grants) }),
  });

  app.get<{ Params: { id: number } }>('/roles/:id/permissions', {
    config: { access: permission(MODULE.roles, 'view') },
    schema: {
      tags,
      operationId: 'getRolePermissions',
      summary: 'A role\'s permission set',
      params: idParams,
      response: { 200: answers.read, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      reply.header('etag', etagOf(await roleVersion(db, request.params.id)));
      const rows = await db.query<{ module: string; action: string }>('SELECT module, action FROM role_permissions WHERE role_id = $1 ORDER BY module, action', [
        request.params.id,
      ]);
      const data: Record<string, string[]> = {};
      for (const row of rows) (data[row.module] ??= []).push(row.action);
      return { data };
    },
  });

  app.put<{ Params: { id: number }; Body: { permissions: Record<string, string[]> } }>('/roles/:id/permissions', {
    config: { access: permission(MODULE.roles, 'edit') },
    schema: {
      tags,
      operationId: 'replaceRolePermissions',
      summary: 'Replace a role\'s permission set',
      description:
        'Applies when the role\'s users next load `user/permission`. `If-Match` is the role\'s version as read; any change to a permission set moves every role\'s version on.',
      params: idParams,
      headers: IF_MATCH_HEADER,
      body: rolePermissionsBody(permissionSet),
      response: { 200: answers.saved, ...errorAnswers(400, 401, 403, 404, 412, 428) },
    },
    handler: async (request, reply) => {
      const { id } = request.params;
      const expected = expectedVersion(request);
      // The full-access lock first, as every writer of users and roles takes it first; then, since every permission
      // change moves every role's grants_version (migration 004), all role rows in one order, so two matrices saved
      // together wait for each other instead of deadlocking.
      const version = await db.transaction((tx) =>
        keepingFullAccess(tx, async () => {
          const roles = await tx.query<{ id: number; version: number }>('SELECT id, version FROM roles ORDER BY id FOR UPDATE');
          const role = roles.find((candidate) => candidate.id === id);
          if (!role) throw notFound('Role');
          if (expected !== 'any' && !expected.versions.includes(role.version)) throw staleRecord('role');
          await tx.query('DELETE FROM role_permissions WHERE role_id = $1', [id]);
          const pairs = Object.entries(request.body.permissions).flatMap(([module, actions]) => actions.map((action) => [module, action] as const));
          if (pairs.length > 0) {
            await tx.query('INSERT INTO role_permissions (role_id, module, action) SELECT $1, m, a FROM unnest($2::text[], $3::text[]) AS p(m, a)', [
              id,
              pairs.map(([module]) => module),
              pairs.map(([, action]) => action),
            ]);
          }
          return roleVersion(tx, id);
        }),
      );
      reply.header('etag', etagOf(version));
      return { data: request.body.permissions, message: 'Permissions saved. They apply when the role\'s users next load their permissions.' };
    },
  });
}

/** The role's record version, which its permission set shares: the ETag of both. */
async function roleVersion(db: Queryable, id: number): Promise<number> {
  const [role] = await db.query<{ version: number }>('SELECT version FROM roles WHERE id = $1', [id]);
  if (!role) throw notFound('Role');
  return role.version;
}
