import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import { errorAnswers } from '../../http/answers.ts';
import { unauthorized } from '../../http/errors.ts';
import { actorOf } from '../audit/record.ts';
import { acceptPasskey, authenticationOptions, relyingParty } from './passkeys.ts';
import { mfaTokenBody, optionsAnswer, passkeySecondStepBody, passkeySignInBody } from './passkeySchemas.ts';
import { sessionTags as tags, tokensAnswer } from './schemas.ts';
import { startSession, type TokenSettings } from './sessions.ts';
import { clientOf, recordRefusedSignIn, recordSuccessfulSignIn } from './signIns.ts';
import { mfaTokenUser, spendMfaToken } from './twoFactor.ts';
import { MFA_TOKEN_EXPIRED } from './twoFactorLogin.ts';
import { auditUser } from './userAudit.ts';

export const PASSKEY_REFUSED = 'This passkey was not accepted. Try again, or sign in with your password.';

/** Signing in with a passkey: alone (a discoverable credential), or as the second step after the password. */
export async function passkeyLoginRoutes(app: FastifyInstance, settings: TokenSettings): Promise<void> {
  const { db } = app;
  const rp = relyingParty(app);

  /** Starts the session of a user whose passkey was accepted, in the transaction that accepted it. */
  const signIn = async (tx: Queryable, request: FastifyRequest, userId: number) => {
    const [user] = await tx.query<{ id: number; email: string; first_name: string | null }>(
      'SELECT id, email, first_name FROM users WHERE id = $1 AND is_active',
      [userId],
    );
    if (!user) return null;
    const { sessionId, ...pair } = await startSession(tx, userId, settings, clientOf(request));
    await recordSuccessfulSignIn(tx, user, clientOf(request), sessionId);
    await auditUser(tx, actorOf(request, user), userId, 'login');
    return pair;
  };
  const refused = (tx: Queryable, request: FastifyRequest, userId: number | null) =>
    auditUser(tx, actorOf(request), userId, 'login_failed', { reason: 'passkey_refused' });

  app.post('/login/passkey-options', {
    config: {
      access: 'public',
      audit: { none: 'Keeps a challenge for the browser to sign; the sign-in itself (POST login/passkey) is audited.' },
    },
    schema: {
      tags,
      operationId: 'passkeySignInOptions',
      summary: 'Log in with a passkey: the challenge',
      description: 'Options for `navigator.credentials.get` naming no user: any passkey of this site may answer.',
      response: { 200: optionsAnswer, ...errorAnswers(400) },
    },
    handler: async () => ({ data: await authenticationOptions(db, rp, null) }),
  });

  // Signed with the user's key on an authenticator that checked them (a PIN, a fingerprint): a passkey alone is both
  // factors, and signs in whether or not the account has a second factor.
  app.post<{ Body: { response: AuthenticationResponseJSON } }>('/login/passkey', {
    config: { access: 'public', audit: { action: ['login', 'login_failed'] } },
    schema: {
      tags,
      operationId: 'loginWithPasskey',
      summary: 'Log in with a passkey',
      description:
        'With what `navigator.credentials.get` answered to the options of `POST login/passkey-options`: their challenge (once, within 5 minutes), this origin and relying party, and a signature counter that moved on. 401 when refused.',
      body: passkeySignInBody,
      response: { 200: tokensAnswer, ...errorAnswers(400, 401) },
    },
    handler: async (request) => {
      const tokens = await db.transaction(async (tx) => {
        const userId = await acceptPasskey(tx, rp, request.body.response, null);
        if (userId === null) {
          await refused(tx, request, null);
          return null;
        }
        return signIn(tx, request, userId);
      });
      if (!tokens) throw unauthorized(PASSKEY_REFUSED);
      return { data: tokens };
    },
  });

  app.post<{ Body: { mfa_token: string } }>('/login/two-factor/passkey-options', {
    config: {
      access: 'public',
      audit: {
        none: 'Keeps a challenge for the second step; the step itself (POST login/two-factor/passkey) is audited.',
      },
    },
    schema: {
      tags,
      operationId: 'passkeySecondStepOptions',
      summary: 'Log in: a passkey as the second factor, the challenge',
      description: "Options naming the user's passkeys, with the `mfa_token` a correct password answered (not spent).",
      body: mfaTokenBody,
      response: { 200: optionsAnswer, ...errorAnswers(400, 401) },
    },
    handler: async (request) => {
      const userId = await mfaTokenUser(db, request.body.mfa_token);
      if (userId === null) throw unauthorized(MFA_TOKEN_EXPIRED);
      return { data: await authenticationOptions(db, rp, userId) };
    },
  });

  app.post<{ Body: { mfa_token: string; response: AuthenticationResponseJSON } }>('/login/two-factor/passkey', {
    config: { access: 'public', audit: { action: ['login', 'login_failed'] } },
    schema: {
      tags,
      operationId: 'loginSecondFactorPasskey',
      summary: 'Log in: a passkey as the second factor',
      description:
        "With the `mfa_token` and what `navigator.credentials.get` answered to `POST login/two-factor/passkey-options`: one of the user's passkeys, checked as `POST login/passkey` checks one. The token is spent when it succeeds.",
      body: passkeySecondStepBody,
      response: { 200: tokensAnswer, ...errorAnswers(400, 401) },
    },
    handler: async (request) => {
      const { mfa_token: token, response } = request.body;
      const outcome = await db.transaction(async (tx) => {
        const userId = await mfaTokenUser(tx, token);
        if (userId === null) return { expired: true } as const;
        if ((await acceptPasskey(tx, rp, response, userId)) === null) {
          await recordRefusedSignIn(tx, userId, 'wrong_code', clientOf(request));
          await refused(tx, request, userId);
          return { tokens: null };
        }
        await spendMfaToken(tx, token);
        return { tokens: await signIn(tx, request, userId) };
      });
      if ('expired' in outcome) throw unauthorized(MFA_TOKEN_EXPIRED);
      if (!outcome.tokens) throw unauthorized(PASSKEY_REFUSED);
      return { data: outcome.tokens };
    },
  });
}
