import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MODULE } from '../../../contract/modules.ts';
import type { Queryable } from '../../db/database.ts';
import { errorAnswers } from '../../http/answers.ts';
import { HttpError, tooManyRequests, unauthorized, validationError } from '../../http/errors.ts';
import { actorOf, recordAudit, type AuditEntry } from '../audit/record.ts';
import { authenticate } from './access.ts';
import {
  consumeEmailLink,
  linkWaitSeconds,
  peekEmailLink,
  PUBLIC_LINK_SPACING_SECONDS,
  sendEmailLink,
  type LinkRecipient,
} from './emailLinks.ts';
import { lifetimeText } from './linkMessages.ts';
import {
  checkLinkBody,
  emailNotVerifiedAnswer,
  emailVerifyBody,
  emailVerifiedAnswer,
  forgetPasswordBody,
  linkSentAnswer,
  loggedOutAnswer,
  loginBody,
  logoutBody,
  passwordChangedAnswer,
  refreshBody,
  resendVerificationBody,
  resetPasswordBody,
  tokensAnswer,
  validLinkAnswer,
  verificationResentAnswer,
  verifyLinkAnswer,
} from './schemas.ts';
import {
  revokeSession,
  revokeSessionOfRefreshToken,
  rotateRefreshToken,
  startSession,
  type TokenSettings,
} from './sessions.ts';
import { clearAccountFailures, loginSucceeded, reserveLoginAttempt } from './throttle.ts';

const INVALID_LOGIN = 'Invalid email or password.';
const RESET_SENT = 'If an account exists for this email, a link to reset the password has been sent.';
/** The sign-in screen recognises this refusal by its status (403) and offers to send the link again. */
export const EMAIL_NOT_VERIFIED =
  'Your email address is not verified yet. Open the link in the email we sent you, or send the link again.';
const tags = ['Session'];

interface SigningInUser extends LinkRecipient {
  verified: boolean;
}

/** Login, token refresh, logout and the e-mail link flows (docs/spec/seed-spec.md section 7; SESSION-06/07/10). */
export async function authRoutes(app: FastifyInstance): Promise<void> {
  const { config, db, passwords } = app;
  const settings: TokenSettings = {
    secret: config.jwtSecret,
    accessTokenSeconds: config.accessTokenSeconds,
    refreshTokenSeconds: config.refreshTokenSeconds,
  };

  /**
   * The active user these credentials are, throttled per account and client like every sign-in; 401 otherwise, after a
   * `login_failed` entry (the attempt was already counted by the throttle, which commits it whatever the answer).
   */
  const checkCredentials = async (request: FastifyRequest, email: string, password: string): Promise<SigningInUser> => {
    const account = email.trim().toLowerCase();
    const client = request.ip;
    await reserveLoginAttempt(db, account, client);
    const [user] = await db.query<{
      id: number;
      email: string;
      first_name: string | null;
      password_hash: string | null;
      is_active: boolean;
      verified: boolean;
    }>(
      'SELECT id, email, first_name, password_hash, is_active, email_verified_at IS NOT NULL AS verified FROM users WHERE lower(email) = $1',
      [account],
    );
    // The hash is verified even when there is no such user (against a decoy), so both answers take as long.
    const matches = await passwords.verify(user?.is_active ? user.password_hash : null, password);
    if (!user || !matches) {
      await db.transaction((tx) =>
        recordAudit(tx, actorOf(request), signInRefused(account, user?.id ?? null, 'wrong_credentials')),
      );
      throw unauthorized(INVALID_LOGIN);
    }
    await loginSucceeded(db, account, client);
    return { id: user.id, email: user.email, first_name: user.first_name, verified: user.verified };
  };

  // An unverified address is refused only after the password matched, so the refusal tells nothing to a stranger.
  app.post<{ Body: { email: string; password: string } }>('/login', {
    config: { access: 'public', audit: { action: ['login', 'login_failed'] } },
    schema: {
      tags,
      operationId: 'login',
      summary: 'Log in',
      description:
        'Repeated failures for an e-mail or from a client are throttled (429). The right password for an address not verified yet answers 403.',
      body: loginBody,
      response: { 200: tokensAnswer, 403: emailNotVerifiedAnswer, ...errorAnswers(400, 401, 429) },
    },
    handler: async (request) => {
      const user = await checkCredentials(request, request.body.email, request.body.password);
      const tokens = await db.transaction(async (tx) => {
        if (!user.verified) {
          await recordAudit(
            tx,
            actorOf(request),
            signInRefused(user.email.toLowerCase(), user.id, 'email_not_verified'),
          );
          return null;
        }
        const pair = await startSession(tx, user.id, settings);
        await recordAudit(tx, actorOf(request, user), { module: MODULE.users, recordId: user.id, action: 'login' });
        return pair;
      });
      if (!tokens) throw new HttpError(403, EMAIL_NOT_VERIFIED);
      return { data: tokens };
    },
  });

  // "Send the link again", from the sign-in screen that refused an unverified address: the same credentials, so only
  // the owner of the account can have links sent to it, and the answer may say plainly what happened.
  app.post<{ Body: { email: string; password: string } }>('/email-verify/resend', {
    config: { access: 'public', audit: { action: ['verification_sent', 'login_failed'] } },
    schema: {
      tags,
      operationId: 'resendVerificationLink',
      summary: 'Send the verification link again',
      description:
        'With the credentials a sign-in refused for an unverified address; throttled as sign-in is, and one link a minute and 5 an hour per account (429).',
      body: resendVerificationBody,
      response: { 200: verificationResentAnswer, ...errorAnswers(400, 401, 429) },
    },
    handler: async (request) => {
      const user = await checkCredentials(request, request.body.email, request.body.password);
      if (user.verified) return { message: 'Your email address is already verified. You can sign in.' };
      await db.transaction(async (tx) => {
        await lockUser(tx, user.id);
        const wait = await linkWaitSeconds(tx, user.id, 'verify_email', PUBLIC_LINK_SPACING_SECONDS);
        if (wait > 0) throw tooManyRequests(wait, 'A verification link was sent to you a moment ago.');
        await sendEmailLink(app, tx, user, 'verify_email');
        await recordAudit(tx, actorOf(request, user), {
          module: MODULE.users,
          recordId: user.id,
          action: 'verification_sent',
        });
      });
      return {
        message: `A new verification link was sent to ${user.email}. It expires in ${lifetimeText(config.verifyLinkSeconds)}.`,
      };
    },
  });

  app.post<{ Body: { refresh: string } }>('/token/refresh', {
    config: {
      access: 'public',
      audit: { none: 'Rotates the tokens of a session whose sign-in is recorded; it changes nothing a person audits.' },
    },
    schema: {
      tags,
      operationId: 'refreshToken',
      summary: 'Rotate the refresh token',
      description: 'A refresh token used twice revokes its whole family (401).',
      body: refreshBody,
      response: { 200: tokensAnswer, ...errorAnswers(400, 401) },
    },
    handler: async (request) => ({ data: await rotateRefreshToken(db, request.body.refresh, settings) }),
  });

  // Logout works with an expired access token too: the console clears its session either way (SESSION-08).
  app.post<{ Body: { refresh?: string } }>('/logout', {
    config: { access: 'public', audit: { action: 'logout' } },
    schema: {
      tags,
      operationId: 'logout',
      summary: 'Log out',
      description:
        'Revokes the session of the Bearer token, if any, and the family of `refresh`, if sent; works with an expired token too.',
      security: [{}, { bearer: [] }],
      body: logoutBody,
      response: { 200: loggedOutAnswer, ...errorAnswers(400) },
    },
    handler: async (request) => {
      const user = await authenticate(app, request, config.jwtSecret);
      const refresh = request.body.refresh;
      await db.transaction(async (tx) => {
        if (user) await revokeSession(tx, user.sessionId);
        const refreshUser = refresh ? await revokeSessionOfRefreshToken(tx, refresh) : null;
        // A token that ended no live session (already revoked, expired, unknown) signs nobody out.
        const who = user ?? (refreshUser ? { id: refreshUser.userId, email: refreshUser.email } : null);
        if (who)
          await recordAudit(tx, actorOf(request, who), { module: MODULE.users, recordId: who.id, action: 'logout' });
      });
      return { message: 'Logged out.' };
    },
  });

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
        await recordAudit(tx, actor, { module: MODULE.users, recordId: userId, action: 'email_verified' });
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

/** A refused sign-in: by nobody known (the caller proved no identity), about the account tried if it exists. */
function signInRefused(
  email: string,
  userId: number | null,
  reason: 'wrong_credentials' | 'email_not_verified',
): AuditEntry {
  return { module: MODULE.users, recordId: userId, action: 'login_failed', details: { email, reason } };
}

/** Held while deciding whether to send a user another link, so two requests cannot both pass the throttle. */
async function lockUser(tx: Queryable, userId: number): Promise<void> {
  await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
}
