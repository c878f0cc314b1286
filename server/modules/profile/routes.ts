import type { FastifyInstance } from 'fastify';
import { currentUser, permission } from '../auth/access.ts';
import { actionBodySchema } from '../../http/actionBody.ts';
import { dataAnswer, errorAnswers, messageAnswer, wholeObject } from '../../http/answers.ts';
import { validationError } from '../../http/errors.ts';
import { MODULE, resource } from '../../registry.ts';
import { writeAsCaller } from '../resources/writeAsCaller.ts';
import { passwordHashOf, userProfile } from '../users-and-roles/users.ts';

const nullableString = { type: ['string', 'null'] };
const PROFILE = wholeObject({
  id: { type: 'integer' },
  first_name: nullableString,
  last_name: nullableString,
  email: { type: 'string' },
  mobile: nullableString,
  role: nullableString,
});

/** The signed-in user's own profile and password (USER_PROFILE, CHANGE_PASSWORD). */
export async function profileRoutes(app: FastifyInstance): Promise<void> {
  const { db, passwords } = app;
  const tags = [resource(MODULE.userProfile)?.label ?? 'Profile'];

  app.get('/user/profile', {
    config: { access: permission(MODULE.userProfile, 'view') },
    schema: {
      tags,
      operationId: 'getOwnProfile',
      summary: "The caller's profile",
      response: { 200: dataAnswer('The profile.', PROFILE), ...errorAnswers(401, 403) },
    },
    handler: async (request) => ({ data: await userProfile(db, currentUser(request).id) }),
  });

  // The body is the whole editable profile: a field the manifest's form leaves optional and the body omits is cleared.
  app.put<{ Body: { first_name: string; last_name: string; mobile?: string } }>('/user/profile', {
    config: { access: permission(MODULE.userProfile, 'edit'), audit: { action: 'profile' } },
    schema: {
      tags,
      operationId: 'updateOwnProfile',
      summary: "Edit the caller's profile",
      description: `The body is the whole editable profile (${MODULE.userProfile}'s form \`edit\`): an optional field left out is cleared.`,
      body: actionBodySchema(MODULE.userProfile, 'edit'),
      response: { 200: dataAnswer('Updated.', PROFILE, { message: true }), ...errorAnswers(400, 401, 403) },
    },
    handler: async (request) => {
      const { id } = currentUser(request);
      const { first_name: firstName, last_name: lastName, mobile } = request.body;
      // A change of the user's record (USERS), so the user's history shows what they changed themselves.
      const body = { first_name: firstName, last_name: lastName, mobile: mobile ?? null };
      await writeAsCaller(app, request, (context) =>
        app.records.named(MODULE.users).update(context, id, body, 'any', { action: 'profile' }),
      );
      return { data: await userProfile(db, id), message: 'Profile updated.' };
    },
  });

  app.post<{ Body: { current_password: string; password: string; confirm_password: string } }>(
    '/user/change-password',
    {
      config: { access: permission(MODULE.changePassword, 'edit'), audit: { action: 'password_change' } },
      schema: {
        tags: [resource(MODULE.changePassword)?.label ?? tags[0]!],
        operationId: 'changeOwnPassword',
        summary: "Change the caller's password",
        description: `${MODULE.changePassword}'s form \`edit\`; the caller's other sessions end.`,
        body: actionBodySchema(MODULE.changePassword, 'edit'),
        response: { 200: messageAnswer('Changed.'), ...errorAnswers(400, 401, 403) },
      },
      handler: async (request) => {
        const user = currentUser(request);
        if (!(await passwords.verify(await passwordHashOf(db, user.id), request.body.current_password))) {
          throw validationError({ current_password: 'The current password is not correct.' });
        }
        // The USERS behaviour stores the hash and ends the caller's other sessions.
        const body = { password: request.body.password };
        await writeAsCaller(app, request, (context) =>
          app.records.named(MODULE.users).update(context, user.id, body, 'any', { action: 'password_change' }),
        );
        return { message: 'Your password has been changed.' };
      },
    },
  );
}
