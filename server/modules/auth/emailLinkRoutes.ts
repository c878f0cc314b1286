import type { FastifyInstance } from 'fastify';
import { MODULE } from '../../../contract/modules.ts';
import { errorAnswers } from '../../http/answers.ts';
import { validationError } from '../../http/errors.ts';
import { actorOf, recordAudit, type AuditEntry } from '../audit/record.ts';
import {
  consumeEmailLink,
  linkWaitSeconds,
  peekEmailLink,
  PUBLIC_LINK_SPACING_SECONDS,
  sendEmailLink,
  type LinkRecipient,
} from './emailLinks.ts';
import {
  checkLinkBody,
  emailVerifyBody,
  emailVerifiedAnswer,
  forgetPasswordBody,
  linkSentAnswer,
  passwordChangedAnswer,
  resetPasswordBody,
  sessionTags as tags,
  validLinkAnswer,
  verifyLinkAnswer,
} from './schemas.ts';
import { clearAccountFailures } from './throttle.ts';
import { auditUser } from './userAudit.ts';

const RESET_SENT = 'If an account exists for this email, a link to reset the password has been sent.';

/** The password reset and e-mail verification links: asking for one, checking it, using it (SESSION-07/10). */
export async function emailLinkRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.post<{ Body: { email: string } }>('/forget_password', {
    config: { access: 'public', audit: { action: 'password_reset_requested' } },
    schema: {
      tags,
      operationId: 'sendPasswordResetLink',
      summary: 'Send a password reset link',
      description:
        'The same answer whether or not the e-mail has an account; one link a minute and 5 an hour per account at most (silently).',
      body: forgetPasswordBody,
      response: { 200: linkSentAnswer, ...errorAnswers(400) },
    },
    handler: async (request) => {
      const account = request.body.email.trim().toLowerCase();
      await db.transaction(async (tx) => {
        const [user] = await tx.query<LinkRecipient & Record<string, unknown>>(
          'SELECT id, email, first_name FROM users WHERE lower(email) = $1 AND is_active FOR UPDATE',
          [account],
        );
        // Recorded for an address without an account too: a run of those is what an administrator looks for.
        const requested = (sent: boolean): AuditEntry => ({
          module: MODULE.users,
          recordId: user?.id ?? null,
          action: 'password_reset_requested',
          details: { email: account, sent },
        });
        if (!user) return recordAudit(tx, actorOf(request), requested(false));
        // Throttled without saying so: the answer must not tell whether the address has an account.
        const wait = await linkWaitSeconds(tx, user.id, 'reset_password', PUBLIC_LINK_SPACING_SECONDS);
        if (wait > 0)
          request.log.info({ user: user.id, wait }, 'password reset link not sent: one was sent a moment ago');
        else await sendEmailLink(app, tx, user, 'reset_password');
        return recordAudit(tx, actorOf(request), requested(wait <= 0));
      });
      return { message: RESET_SENT };
    },
  });

  app.post<{ Body: { token: string } }>('/check-link', {
    config: { access: 'public', audit: { none: 'Reads whether a reset link is still valid; it changes nothing.' } },
    schema: {
      tags,
      operationId: 'checkPasswordResetLink',
      summary: 'Check a password reset link',
      description: 'An expired or used link is a 400.',
      body: checkLinkBody,
      response: { 200: validLinkAnswer, ...errorAnswers(400) },
    },
    handler: async (request) => {
      const { email } = await peekEmailLink(db, request.body.token, 'reset_password');
      return { data: { valid: true, email } };
    },
  });

  app.post<{ Body: { token: string; password: string; confirm_password: string } }>('/reset_password', {
    config: { access: 'public', audit: { action: 'password_reset' } },
    schema: {
      tags,
      operationId: 'resetPassword',
      summary: 'Choose a new password with a reset link',
      description: 'The link works once; every session of the user ends.',
      body: resetPasswordBody,
      response: { 200: passwordChangedAnswer, ...errorAnswers(400) },
    },
    handler: async (request) => {
      await db.transaction(async (tx) => {
        const userId = await consumeEmailLink(tx, request.body.token, 'reset_password');
        // The link came by e-mail, so it proves the address too (sign-in state, not a field of the record).
        const [user] = await tx.query<{ email: string }>(
          'UPDATE users SET email_verified_at = coalesce(email_verified_at, now()) WHERE id = $1 RETURNING email',
          [userId],
        );
        const actor = actorOf(request, user && { id: userId, email: user.email });
        // The USERS behaviour stores the hash and ends every session of the user.
        await app.records
          .named(MODULE.users)
          .update({ app, tx, user: null, actor }, userId, { password: request.body.password }, 'any', {
            action: 'password_reset',
          });
        if (user) await clearAccountFailures(tx, user.email.toLowerCase());
      });
      return { message: 'Your password has been changed. Please log in.' };
    },
  });

  app.post<{ Body: { token: string } }>('/email-verify/check', {
    config: {
      access: 'public',
      audit: { none: 'Reads whether a verification link is still valid; it changes nothing.' },
    },
    schema: {
      tags,
      operationId: 'checkEmailVerificationLink',
      summary: 'Check a verification link',
      description:
        'Says whether the account still needs a password (an invited user chooses it with the link). An expired or used link is a 400.',
      body: checkLinkBody,
      response: { 200: verifyLinkAnswer, ...errorAnswers(400) },
    },
    handler: async (request) => {
      const { userId, email } = await peekEmailLink(db, request.body.token, 'verify_email');
      const [user] = await db.query<{ password_set: boolean }>(
        'SELECT password_hash IS NOT NULL AS password_set FROM users WHERE id = $1',
        [userId],
      );
      return { data: { valid: true, email, password_set: user?.password_set ?? false } };
    },
  });

  app.post<{ Body: { token: string; password?: string; confirm_password?: string } }>('/email-verify', {
    config: { access: 'public', audit: { action: ['email_verified', 'password_change'] } },
    schema: {
      tags,
      operationId: 'verifyEmail',
      summary: 'Verify an e-mail address',
      description:
        'An account created without a password needs `password` and `confirm_password` here (400 otherwise, the link still unused); one with a password refuses them.',
      body: emailVerifyBody,
      response: { 200: emailVerifiedAnswer, ...errorAnswers(400) },
    },
    handler: async (request) => {
      const { token, password } = request.body;
      const choseIt = await db.transaction(async (tx) => {
        const userId = await consumeEmailLink(tx, token, 'verify_email');
        const [user] = await tx.query<{ email: string; password_set: boolean }>(
          'UPDATE users SET email_verified_at = coalesce(email_verified_at, now()) WHERE id = $1 RETURNING email, password_hash IS NOT NULL AS password_set',
          [userId],
        );
        const actor = actorOf(request, user && { id: userId, email: user.email });
        // Thrown inside the transaction, so the link stays usable for a second try.
        if (user?.password_set && password !== undefined)
          throw validationError({
            password: 'This account already has a password: use "Forgot password" to change it.',
          });
        if (user && !user.password_set) {
          if (password === undefined)
            throw validationError({ password: 'Choose a password to finish setting up your account.' });
          await app.records
            .named(MODULE.users)
            .update({ app, tx, user: null, actor }, userId, { password }, 'any', { action: 'password_change' });
        }
        await auditUser(tx, actor, userId, 'email_verified');
        return password !== undefined;
      });
      return {
        message: choseIt
          ? 'Your password is set and your email address verified. You can sign in now.'
          : 'Your email address has been verified. You can sign in now.',
      };
    },
  });
}
