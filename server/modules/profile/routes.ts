import type { FastifyInstance } from 'fastify';
import { currentUser, permission } from '../auth/access.ts';
import { revokeAllSessions } from '../auth/sessions.ts';
import { actionBodySchema } from '../../http/actionBody.ts';
import { validationError } from '../../http/errors.ts';
import { MODULE } from '../../registry.ts';

const USER_FIELDS = 'u.id, u.first_name, u.last_name, u.email, u.mobile, r.name AS role';

/** The signed-in user's own profile and password (USER_PROFILE, CHANGE_PASSWORD). */
export async function profileRoutes(app: FastifyInstance): Promise<void> {
  const { db, passwords } = app;

  const loadProfile = async (id: number) => {
    const [row] = await db.query(`SELECT ${USER_FIELDS} FROM users u LEFT JOIN roles r ON r.id = u.role_id WHERE u.id = $1`, [id]);
    return row;
  };

  app.get('/user/profile', {
    config: { access: permission(MODULE.userProfile, 'view') },
    handler: async (request) => ({ data: await loadProfile(currentUser(request).id) }),
  });

  // The body is the whole editable profile: a field the manifest's form leaves optional and the body omits is cleared.
  app.put<{ Body: { first_name: string; last_name: string; mobile?: string } }>('/user/profile', {
    config: { access: permission(MODULE.userProfile, 'edit') },
    schema: { body: actionBodySchema(MODULE.userProfile, 'edit') },
    handler: async (request) => {
      const { id } = currentUser(request);
      const { first_name: firstName, last_name: lastName, mobile } = request.body;
      await db.query('UPDATE users SET first_name = $2, last_name = $3, mobile = $4, updated_at = now() WHERE id = $1', [id, firstName, lastName, mobile ?? null]);
      return { data: await loadProfile(id), message: 'Profile updated.' };
    },
  });

  app.post<{ Body: { current_password: string; password: string; confirm_password: string } }>('/user/change-password', {
    config: { access: permission(MODULE.changePassword, 'edit') },
    schema: { body: actionBodySchema(MODULE.changePassword, 'edit') },
    handler: async (request) => {
      const user = currentUser(request);
      const [row] = await db.query<{ password_hash: string | null }>('SELECT password_hash FROM users WHERE id = $1', [user.id]);
      if (!(await passwords.verify(row?.password_hash ?? null, request.body.current_password))) {
        throw validationError({ current_password: 'The current password is not correct.' });
      }
      const hash = await passwords.hash(request.body.password);
      await db.transaction(async (tx) => {
        await tx.query('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1', [user.id, hash]);
        await revokeAllSessions(tx, user.id, user.sessionId);
      });
      return { message: 'Your password has been changed.' };
    },
  });
}
