import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MODULE } from '../../../contract/modules.ts';
import { errorAnswers, messageAnswer } from '../../http/answers.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { idParams } from '../../http/requestSchemas.ts';
import { resource } from '../../registry.ts';
import { actorOf } from '../audit/record.ts';
import { queueMail } from '../mail/outbox.ts';
import { currentUser, permission } from './access.ts';
import { listPasskeys, removeAllPasskeys } from './passkeys.ts';
import { removeSecondFactor, twoFactorStatus } from './twoFactor.ts';
import { resetMessage } from './twoFactorMessages.ts';
import { userStatusAnswer } from './twoFactorSchemas.ts';
import { auditUser } from './userAudit.ts';
import { revokeAllSessions } from './sessions.ts';

/**
 * An administrator's side of a user's second factors (docs/api.md, "Two-factor sign-in"): what the user has enrolled
 * (the authenticator app and each passkey), and the reset that removes all of it.
 */
export async function userSecondFactorRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const tags = [resource(MODULE.users)?.label ?? 'Users'];
  /** A user the caller may see under the users' record scope; 404 for any other. */
  const visibleUser = async (request: FastifyRequest, id: number) => {
    const users = app.records.named(MODULE.users);
    if (!(await users.table.visible(db, [id], users.scopeOf(currentUser(request))))) throw notFound('User');
  };

  app.get<{ Params: { id: number } }>('/users/:id/two-factor', {
    config: { access: permission(MODULE.users, 'view_detail') },
    schema: {
      tags,
      operationId: 'getUserTwoFactor',
      summary: "A user's second factors",
      description: 'Whether the authenticator app is on, and the passkeys (names, when added and last used).',
      params: idParams,
      response: { 200: userStatusAnswer, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const { id } = request.params;
      await visibleUser(request, id);
      const [status, passkeys] = await Promise.all([twoFactorStatus(db, id), listPasskeys(db, id)]);
      return { data: { ...status, passkeys } };
    },
  });

  app.delete<{ Params: { id: number } }>('/users/:id/two-factor', {
    config: { access: permission(MODULE.users, 'edit'), audit: { action: 'two_factor_reset' } },
    schema: {
      tags,
      operationId: 'resetUserTwoFactor',
      summary: "Reset a user's second factors",
      description:
        "Removes the authenticator app, its recovery codes and every passkey, and ends every session of the user's: they sign in again with their password alone until they enrol again (at once, when their role requires it), and are told by e-mail. 409 when they have none.",
      params: idParams,
      response: { 200: messageAnswer('Reset.'), ...errorAnswers(400, 401, 403, 404, 409) },
    },
    handler: async (request) => {
      const { id } = request.params;
      await visibleUser(request, id);
      await db.transaction(async (tx) => {
        const [user] = await tx.query<{ email: string; first_name: string | null }>(
          'SELECT email, first_name FROM users WHERE id = $1 FOR UPDATE',
          [id],
        );
        if (!user) throw notFound('User');
        const hadApp = await removeSecondFactor(tx, id);
        const passkeys = await removeAllPasskeys(tx, id);
        if (!hadApp && passkeys.length === 0) throw conflict('This user has no second factor to reset.');
        // Whoever held a lost phone or key may hold a session it started: every session ends with the factors.
        const sessions = await revokeAllSessions(tx, id);
        await auditUser(tx, actorOf(request), id, 'two_factor_reset', {
          authenticator_app: hadApp,
          passkeys,
          sessions_ended: sessions.length,
        });
        await queueMail(tx, resetMessage(user, { app: hadApp, passkeys: passkeys.length }));
      });
      return { message: 'Two-factor sign-in was reset and the user signed out everywhere. They were told by e-mail.' };
    },
  });
}
