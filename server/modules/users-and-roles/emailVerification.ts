import type { FastifyInstance } from 'fastify';
import { errorAnswers } from '../../http/answers.ts';
import { conflict, notFound, tooManyRequests } from '../../http/errors.ts';
import { idParams } from '../../http/requestSchemas.ts';
import { MODULE, resource } from '../../registry.ts';
import { permission } from '../auth/access.ts';
import { LINKS_PER_HOUR, linkWaitSeconds, sendEmailLink } from '../auth/emailLinks.ts';
import { emailVerificationAnswers, verificationLinkBody } from './schemas.ts';
import { actorOf } from '../audit/record.ts';
import { emailVerificationStatus, lockVerificationRecipient } from './users.ts';
import { auditUser } from '../auth/userAudit.ts';

/** A user's e-mail verification, seen and resent by an administrator from the user's detail screen. */
export async function emailVerificationRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const tags = [resource(MODULE.users)?.label ?? 'Users'];

  app.get<{ Params: { id: number } }>('/users/:id/email-verification', {
    config: { access: permission(MODULE.users, 'view_detail') },
    schema: {
      tags,
      operationId: 'getUserEmailVerification',
      summary: 'Whether a user has verified their address',
      params: idParams,
      response: { 200: emailVerificationAnswers.read, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request) => ({ data: await emailVerificationStatus(db, request.params.id) }),
  });

  app.post<{ Params: { id: number } }>('/users/:id/email-verification', {
    config: { access: permission(MODULE.users, 'edit'), audit: { action: 'verification_sent' } },
    schema: {
      tags,
      operationId: 'resendUserVerificationLink',
      summary: 'Send a user the verification link again',
      description: '409 when the address is verified or the user inactive; 5 links an hour per user at most (429).',
      params: idParams,
      body: verificationLinkBody,
      response: { 200: emailVerificationAnswers.sent, ...errorAnswers(400, 401, 403, 404, 409, 429) },
    },
    handler: async (request) => {
      const { id } = request.params;
      const email = await db.transaction(async (tx) => {
        const user = await lockVerificationRecipient(tx, id);
        if (!user) throw notFound('User');
        if (user.verified) throw conflict(`${user.email} is already verified.`);
        if (!user.is_active) throw conflict('This user is inactive: activate them before sending a link.');
        const wait = await linkWaitSeconds(tx, id, 'verify_email', 0);
        if (wait > 0)
          throw tooManyRequests(wait, `${LINKS_PER_HOUR} verification links were sent to this user in the last hour.`);
        await sendEmailLink(app, tx, user, 'verify_email');
        await auditUser(tx, actorOf(request), id, 'verification_sent', { email: user.email });
        return user.email;
      });
      return { data: await emailVerificationStatus(db, id), message: `A new verification link was sent to ${email}.` };
    },
  });
}
