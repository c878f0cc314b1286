import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import { dataAnswer, errorAnswers } from '../../http/answers.ts';
import { HttpError, tooManyRequests } from '../../http/errors.ts';
import { actorOf, recordAudit } from '../audit/record.ts';
import { authenticate } from './access.ts';
import { checkCredentials, signInRefused } from './credentials.ts';
import { emailLinkRoutes } from './emailLinkRoutes.ts';
import { linkWaitSeconds, PUBLIC_LINK_SPACING_SECONDS, sendEmailLink } from './emailLinks.ts';
import { lifetimeText } from './linkMessages.ts';
import { passkeyLoginRoutes } from './passkeyLogin.ts';
import { passkeyRoutes } from './passkeyRoutes.ts';
import { sessionRoutes } from './sessionRoutes.ts';
import { hasSecondFactor, issueMfaToken, roleRequiresTwoFactor, secondFactorMethods } from './twoFactor.ts';
import { twoFactorLoginRoute } from './twoFactorLogin.ts';
import { twoFactorRoutes } from './twoFactorRoutes.ts';
import { userSecondFactorRoutes } from './userSecondFactorRoutes.ts';
import { ENROL_METHODS, ENROL_REQUIRED, MFA_REQUIRED } from './twoFactorSchemas.ts';
import { clientOf, recordRefusedSignIn, recordSuccessfulSignIn } from './signIns.ts';
import {
  emailNotVerifiedAnswer,
  loggedOutAnswer,
  loginBody,
  logoutBody,
  refreshBody,
  resendVerificationBody,
  sessionTags as tags,
  TOKEN_PAIR,
  tokensAnswer,
  verificationResentAnswer,
} from './schemas.ts';
import {
  revokeSession,
  revokeSessionOfRefreshToken,
  rotateRefreshToken,
  startSession,
  type TokenSettings,
} from './sessions.ts';
import { auditUser } from './userAudit.ts';

/** The sign-in screen recognises this refusal by its status (403) and offers to send the link again. */
export const EMAIL_NOT_VERIFIED =
  'Your email address is not verified yet. Open the link in the email we sent you, or send the link again.';

/** Login, token refresh, logout and the e-mail link flows (docs/spec/seed-spec.md section 7; SESSION-06/07/10). */
export async function authRoutes(app: FastifyInstance): Promise<void> {
  const { config, db } = app;
  const settings: TokenSettings = {
    secret: config.jwtSecret,
    accessTokenSeconds: config.accessTokenSeconds,
    refreshTokenSeconds: config.refreshTokenSeconds,
  };

  // An unverified address is refused only after the password matched, so the refusal tells nothing to a stranger.
  app.post<{ Body: { email: string; password: string } }>('/login', {
    config: { access: 'public', audit: { action: ['login', 'login_failed'] } },
    schema: {
      tags,
      operationId: 'login',
      summary: 'Log in',
      description:
        'Repeated failures for an e-mail or from a client are throttled (429). The right password for an address not verified yet answers 403. An account with two-factor sign-in answers `mfa_required` and an `mfa_token` instead of tokens: `POST login/two-factor` completes the sign-in. A user whose role requires a second factor they have not enrolled gets tokens with `enrol_required`: only the enrolment routes accept them until a factor is enrolled.',
      body: loginBody,
      response: { 200: loginAnswer, 403: emailNotVerifiedAnswer, ...errorAnswers(400, 401, 429) },
    },
    handler: async (request) => {
      const user = await checkCredentials(app, request, request.body.email, request.body.password);
      const client = clientOf(request);
      const tokens = await db.transaction(async (tx) => {
        if (!user.verified) {
          await recordRefusedSignIn(tx, user.id, 'unverified', client);
          await recordAudit(
            tx,
            actorOf(request),
            signInRefused(user.email.toLowerCase(), user.id, 'email_not_verified'),
          );
          return null;
        }
        if (await hasSecondFactor(tx, user.id))
          return {
            mfa_required: true,
            mfa_token: await issueMfaToken(tx, user.id),
            methods: await secondFactorMethods(tx, user.id),
          };
        const { sessionId, ...pair } = await startSession(tx, user.id, settings, client);
        await recordSuccessfulSignIn(tx, user, client, sessionId);
        await auditUser(tx, actorOf(request, user), user.id, 'login');
        if (await roleRequiresTwoFactor(tx, user.id)) return { ...pair, enrol_required: true, methods: ENROL_METHODS };
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
      const user = await checkCredentials(app, request, request.body.email, request.body.password);
      if (user.verified) return { message: 'Your email address is already verified. You can sign in.' };
      await db.transaction(async (tx) => {
        await lockUser(tx, user.id);
        const wait = await linkWaitSeconds(tx, user.id, 'verify_email', PUBLIC_LINK_SPACING_SECONDS);
        if (wait > 0) throw tooManyRequests(wait, 'A verification link was sent to you a moment ago.');
        await sendEmailLink(app, tx, user, 'verify_email');
        await auditUser(tx, actorOf(request, user), user.id, 'verification_sent');
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
    handler: async (request) => ({
      data: await rotateRefreshToken(db, request.body.refresh, settings, clientOf(request)),
    }),
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
      const caller = await authenticate(app, request, config.jwtSecret);
      // An API token is revoked where tokens are managed, not by logging out.
      const user = caller?.apiToken ? null : caller;
      const refresh = request.body.refresh;
      await db.transaction(async (tx) => {
        if (user) await revokeSession(tx, user.sessionId);
        const refreshUser = refresh ? await revokeSessionOfRefreshToken(tx, refresh) : null;
        // A token that ended no live session (already revoked, expired, unknown) signs nobody out.
        const who = user ?? (refreshUser ? { id: refreshUser.userId, email: refreshUser.email } : null);
        if (who) await auditUser(tx, actorOf(request, who), who.id, 'logout');
      });
      return { message: 'Logged out.' };
    },
  });

  await emailLinkRoutes(app);
  await sessionRoutes(app);
  await twoFactorLoginRoute(app, settings);
  await twoFactorRoutes(app);
  await userSecondFactorRoutes(app);
  await passkeyLoginRoutes(app, settings);
  await passkeyRoutes(app);
}

/**
 * Tokens, the second step a second factor asks for, or tokens limited to enrolling the second factor a role requires.
 * `anyOf` in this order: the serializer writes the first shape that fits, and a token pair fits the last too.
 */
const loginAnswer = dataAnswer(
  'A new access and refresh token; or (two-factor sign-in on) the token of the second step; or (the role requires a second factor not enrolled yet) tokens the enrolment routes alone accept.',
  { anyOf: [MFA_REQUIRED, ENROL_REQUIRED, TOKEN_PAIR] },
);

/** Held while deciding whether to send a user another link, so two requests cannot both pass the throttle. */
async function lockUser(tx: Queryable, userId: number): Promise<void> {
  await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
}
