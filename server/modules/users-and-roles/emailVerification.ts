import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import { errorAnswers } from '../../http/answers.ts';
import { conflict, notFound, tooManyRequests } from '../../http/errors.ts';
import { idParams } from '../../http/requestSchemas.ts';
import { MODULE, resource } from '../../registry.ts';
import { permission } from '../auth/access.ts';
import { LINKS_PER_HOUR, linkWaitSeconds, sendEmailLink } from '../auth/emailLinks.ts';
import { emailVerificationAnswers, verificationLinkBody } from './schemas.ts';
import { actorOf, recordAudit } from '../audit/record.ts';

/** Whether a user's address is verified, and the last verification link sent to it. */
interface EmailVerificationStatus {
  email: string;
  verified_at: string | null;
  last_link_sent_at: string | null;
  last_link_expires_at: string | null;
}

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
    handler: async (request) => ({ data: await verificationStatus(db, request.params.id) }),
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
        const [user] = await tx.query<{
          id: number;
          email: string;
          first_name: string | null;
          is_active: boolean;
          verified: boolean;
          password_set: boolean;
        }>(
          'SELECT id, email, first_name, is_active, email_verified_at IS NOT NULL AS verified, password_hash IS NOT NULL AS password_set FROM users WHERE id = $1 FOR UPDATE',
          [id],
        );
        if (!user) throw notFound('User');
        if (user.verified) throw conflict(`${user.email} is already verified.`);
        if (!user.is_active) throw conflict('This user is inactive: activate them before sending a link.');
        const wait = await linkWaitSeconds(tx, id, 'verify_email', 0);
        if (wait > 0)
          throw tooManyRequests(wait, `${LINKS_PER_HOUR} verification links were sent to this user in the last hour.`);
        await sendEmailLink(app, tx, user, 'verify_email');
        await recordAudit(tx, actorOf(request), {
          module: MODULE.users,
          recordId: id,
          action: 'verification_sent',
          details: { email: user.email },
        });
        return user.email;
      });
      return { data: await verificationStatus(db, id), message: `A new verification link was sent to ${email}.` };
    },
  });
}

async function verificationStatus(db: Queryable, userId: number): Promise<EmailVerificationStatus> {
  const [status] = await db.query<EmailVerificationStatus & Record<string, unknown>>(
    `SELECT u.email, u.email_verified_at AS verified_at, l.created_at AS last_link_sent_at, l.expires_at AS last_link_expires_at
       FROM users u
       LEFT JOIN LATERAL (SELECT created_at, expires_at FROM email_links
                           WHERE user_id = u.id AND purpose = 'verify_email' ORDER BY created_at DESC LIMIT 1) l ON true
      WHERE u.id = $1`,
    [userId],
  );
  if (!status) throw notFound('User');
  return status;
}
