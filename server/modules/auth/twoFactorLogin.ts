import type { FastifyInstance } from 'fastify';
import { errorAnswers } from '../../http/answers.ts';
import { unauthorized } from '../../http/errors.ts';
import { actorOf } from '../audit/record.ts';
import { sessionTags as tags, tokensAnswer } from './schemas.ts';
import { startSession, type TokenSettings } from './sessions.ts';
import { clientOf, recordSuccessfulSignIn } from './signIns.ts';
import { totpKey } from './totp.ts';
import { acceptSecondFactor, mfaTokenUser, spendMfaToken } from './twoFactor.ts';
import { withCodeCheck } from './twoFactorCodes.ts';
import { secondStepBody } from './twoFactorSchemas.ts';
import { auditUser } from './userAudit.ts';

export const MFA_TOKEN_EXPIRED = 'This sign-in has expired or was already completed. Sign in again.';
export const WRONG_CODE = 'Wrong code.';

/** The second step of a sign-in with a second factor: the token `POST login` answered and a code (or recovery code). */
export async function twoFactorLoginRoute(app: FastifyInstance, settings: TokenSettings): Promise<void> {
  const { db } = app;
  const key = totpKey(app.config.jwtSecret);

  app.post<{ Body: { mfa_token: string; code: string } }>('/login/two-factor', {
    config: { access: 'public', audit: { action: ['login', 'login_failed'] } },
    schema: {
      tags,
      operationId: 'loginSecondFactor',
      summary: 'Log in: the second factor',
      description:
        'With the `mfa_token` a correct password answered (single use, 5 minutes) and a code of the authenticator app or a recovery code. Each code is accepted once; wrong codes are throttled per user and client as passwords are (429).',
      body: secondStepBody,
      response: { 200: tokensAnswer, ...errorAnswers(400, 401, 429) },
    },
    handler: async (request) => {
      const { mfa_token: token, code } = request.body;
      const userId = await mfaTokenUser(db, token);
      if (userId === null) throw unauthorized(MFA_TOKEN_EXPIRED);
      const [user] = await db.query<{ id: number; email: string; first_name: string | null }>(
        'SELECT id, email, first_name FROM users WHERE id = $1 AND is_active',
        [userId],
      );
      if (!user) throw unauthorized(MFA_TOKEN_EXPIRED);
      const tokens = await withCodeCheck(
        app,
        request,
        userId,
        () => unauthorized(WRONG_CODE),
        async (tx) => {
          // Locked again: of two requests with the same token, the second finds it spent.
          if ((await mfaTokenUser(tx, token)) === null) throw unauthorized(MFA_TOKEN_EXPIRED);
          if (!(await acceptSecondFactor(tx, key, userId, code))) return { right: false };
          await spendMfaToken(tx, token);
          const { sessionId, ...pair } = await startSession(tx, userId, settings, clientOf(request));
          await recordSuccessfulSignIn(tx, user, clientOf(request), sessionId);
          await auditUser(tx, actorOf(request, user), userId, 'login');
          return { right: true, value: pair };
        },
        (tx) =>
          auditUser(tx, actorOf(request), userId, 'login_failed', {
            email: user.email.toLowerCase(),
            reason: 'wrong_code',
          }),
      );
      return { data: tokens };
    },
  });
}
