import type { FastifyInstance } from 'fastify';
import { errorAnswers } from '../../http/answers.ts';
import { unauthorized } from '../../http/errors.ts';
import { authenticate } from './access.ts';
import {
  checkLinkBody,
  emailVerifyBody,
  emailVerifiedAnswer,
  forgetPasswordBody,
  linkSentAnswer,
  loggedOutAnswer,
  loginBody,
  logoutBody,
  passwordChangedAnswer,
  refreshBody,
  resetPasswordBody,
  tokensAnswer,
  validLinkAnswer,
} from './schemas.ts';
import { consumeEmailLink, createEmailLink, emailLinkUrl, peekEmailLink, sendMail } from './emailLinks.ts';
import { revokeAllSessions, revokeSession, revokeSessionOfRefreshToken, rotateRefreshToken, startSession, type TokenSettings } from './sessions.ts';
import { clearAccountFailures, loginSucceeded, reserveLoginAttempt } from './throttle.ts';

const INVALID_LOGIN = 'Invalid email or password.';
const RESET_SENT = 'If an account exists for this email, a link to reset the password has been sent.';
const tags = ['Session'];

/** Login, token refresh, logout and the e-mail link flows (spec section 7, SESSION-06/07/10). */
export async function authRoutes(app: FastifyInstance): Promise<void> {
  const { config, db, passwords } = app;
  const settings: TokenSettings = { secret: config.jwtSecret, accessTokenSeconds: config.accessTokenSeconds, refreshTokenSeconds: config.refreshTokenSeconds };

  app.post<{ Body: { email: string; password: string } }>('/login', {
    config: { access: 'public' },
    schema: {
      tags,
      operationId: 'login',
      summary: 'Log in',
      description: 'Repeated failures for an e-mail or from a client are throttled (429).',
      body: loginBody,
      response: { 200: tokensAnswer, ...errorAnswers(400, 401, 429) },
    },
    handler: async (request) => {
      const account = request.body.email.trim().toLowerCase();
      await reserveLoginAttempt(db, account, request.ip);
      const [user] = await db.query<{ id: number; password_hash: string | null; is_active: boolean }>(
        'SELECT id, password_hash, is_active FROM users WHERE lower(email) = $1',
        [account],
      );
      // The hash is verified even when there is no such user (against a decoy), so both answers take as long.
      const matches = await passwords.verify(user?.is_active ? user.password_hash : null, request.body.password);
      if (!user || !matches) throw unauthorized(INVALID_LOGIN);
      await loginSucceeded(db, account, request.ip);
      return { data: await startSession(db, user.id, settings) };
    },
  });

  app.post<{ Body: { refresh: string } }>('/token/refresh', {
    config: { access: 'public' },
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
    config: { access: 'public' },
    schema: {
      tags,
      operationId: 'logout',
      summary: 'Log out',
      description: 'Revokes the session of the Bearer token, if any, and the family of `refresh`, if sent; works with an expired token too.',
      security: [{}, { bearer: [] }],
      body: logoutBody,
      response: { 200: loggedOutAnswer, ...errorAnswers(400) },
    },
    handler: async (request) => {
      const user = await authenticate(app, request, config.jwtSecret);
      if (user) await revokeSession(db, user.sessionId);
      if (request.body.refresh) await revokeSessionOfRefreshToken(db, request.body.refresh);
      return { message: 'Logged out.' };
    },
  });

  app.post<{ Body: { email: string } }>('/forget_password', {
    config: { access: 'public' },
    schema: {
      tags,
      operationId: 'sendPasswordResetLink',
      summary: 'Send a password reset link',
      description: 'The same answer whether or not the e-mail has an account.',
      body: forgetPasswordBody,
      response: { 200: linkSentAnswer, ...errorAnswers(400) },
    },
    handler: async (request) => {
      const account = request.body.email.trim().toLowerCase();
      const [user] = await db.query<{ id: number; email: string }>('SELECT id, email FROM users WHERE lower(email) = $1 AND is_active', [account]);
      if (user) {
        const link = emailLinkUrl(publicOrigin(app), 'reset_password', await createEmailLink(db, user.id, 'reset_password', config.resetLinkSeconds));
        await sendMail(db, user.email, 'Reset your password', `Open this link to choose a new password: ${link}`);
        if (!config.production) request.log.info({ to: user.email, link }, 'password reset link (development only)');
      }
      return { message: RESET_SENT };
    },
  });

  app.post<{ Body: { token: string } }>('/check-link', {
    config: { access: 'public' },
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
    config: { access: 'public' },
    schema: {
      tags,
      operationId: 'resetPassword',
      summary: 'Choose a new password with a reset link',
      description: 'The link works once; every session of the user ends.',
      body: resetPasswordBody,
      response: { 200: passwordChangedAnswer, ...errorAnswers(400) },
    },
    handler: async (request) => {
      const hash = await passwords.hash(request.body.password);
      await db.transaction(async (tx) => {
        const userId = await consumeEmailLink(tx, request.body.token, 'reset_password');
        const [user] = await tx.query<{ email: string }>('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1 RETURNING email', [userId, hash]);
        await revokeAllSessions(tx, userId);
        if (user) await clearAccountFailures(tx, user.email.toLowerCase());
      });
      return { message: 'Your password has been changed. Please log in.' };
    },
  });

  app.post<{ Body: { token: string } }>('/email-verify', {
    config: { access: 'public' },
    schema: {
      tags,
      operationId: 'verifyEmail',
      summary: 'Verify an e-mail address',
      body: emailVerifyBody,
      response: { 200: emailVerifiedAnswer, ...errorAnswers(400) },
    },
    handler: async (request) => {
      const userId = await consumeEmailLink(db, request.body.token, 'verify_email');
      await db.query('UPDATE users SET email_verified_at = now() WHERE id = $1', [userId]);
      return { message: 'Your email address has been verified.' };
    },
  });
}

/** Links in e-mails use the configured public URL, never the request's Host header (which a caller controls). */
export function publicOrigin(app: FastifyInstance): string {
  return (app.config.publicUrl ?? `http://localhost:${app.config.port}`).replace(/\/$/, '');
}
