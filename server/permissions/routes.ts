import type { FastifyInstance } from 'fastify';
import { rolePermissionsBody } from '../../contract/endpoints.ts';
import { idParams } from '../../contract/resources.ts';
import { currentUser, permission } from '../auth/access.ts';
import { notFound } from '../http/errors.ts';
import { AREAS, MODULE, RESOURCES, actionsOf } from '../registry.ts';
import { permissionMap } from './grants.ts';

/** Every module with the actions it offers: the areas (view), then their resources. */
const MODULES = [...AREAS.map((area) => area.key), ...RESOURCES.map((resource) => resource.key)].map((key) => ({ key, actions: actionsOf(key) }));

/** PERM-01 and the role permission sets edited through ROLES. */
export async function permissionRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  // Built from the role on every call, so a change to the role shows on the user's next load.
  app.get('/user/permission', {
    config: { access: 'signed-in' },
    handler: async (request) => ({ data: permissionMap(currentUser(request).grants) }),
  });

  app.get<{ Params: { id: number } }>('/roles/:id/permissions', {
    config: { access: permission(MODULE.roles, 'view') },
    schema: { params: idParams },
    handler: async (request) => {
      await assertRole(app, request.params.id);
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
    schema: { params: idParams, body: rolePermissionsBody(MODULES) },
    handler: async (request) => {
      const { id } = request.params;
      await db.transaction(async (tx) => {
        await assertRole(app, id, tx);
        await tx.query('DELETE FROM role_permissions WHERE role_id = $1', [id]);
        const pairs = Object.entries(request.body.permissions).flatMap(([module, actions]) => actions.map((action) => [module, action] as const));
        if (pairs.length > 0) {
          await tx.query('INSERT INTO role_permissions (role_id, module, action) SELECT $1, m, a FROM unnest($2::text[], $3::text[]) AS p(m, a)', [
            id,
            pairs.map(([module]) => module),
            pairs.map(([, action]) => action),
          ]);
        }
      });
      return { data: request.body.permissions, message: 'Permissions saved. They apply when the role\'s users next load their permissions.' };
    },
  });
}

async function assertRole(app: FastifyInstance, id: number, db: Pick<FastifyInstance['db'], 'query'> = app.db): Promise<void> {
  const [role] = await db.query('SELECT id FROM roles WHERE id = $1', [id]);
  if (!role) throw notFound('Role');
}
