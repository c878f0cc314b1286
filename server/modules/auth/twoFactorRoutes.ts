import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorAnswers, messageAnswer } from '../../http/answers.ts';
import { conflict, HttpError } from '../../http/errors.ts';
import { actorOf } from '../audit/record.ts';
import { currentUser } from './access.ts';
import { newTotpSecret, totpKey } from './totp.ts';
import {
  acceptSecondFactor,
  acceptTotpCode,
  confirmEnrolment,
  hasSecondFactor,
  roleRequiresTwoFactor,
  totpOn,
  removeSecondFactor,
  replaceRecoveryCodes,
  startEnrolment,
  twoFactorStatus,
} from './twoFactor.ts';
import { withCodeCheck } from './twoFactorCodes.ts';
import { codeBody, enrolmentAnswer, recoveryCodesAnswer, statusAnswer } from './twoFactorSchemas.ts';
import { auditUser } from './userAudit.ts';

const WRONG_CODE_TEXT = 'This code is not right, or was already used. Try the next one.';
const WRONG_CODE = () => new HttpError(400, WRONG_CODE_TEXT, { code: WRONG_CODE_TEXT });
/** Turning off the last second factor of a user whose role requires one. */
export const LAST_FACTOR = () =>
  conflict('Your role requires two-factor sign-in: add another second factor before you remove this one.');
const RECOVERY_MESSAGE =
  'Keep these recovery codes somewhere safe: each signs you in once, and they are not shown again.';

/** Two-factor sign-in from the caller's profile (docs/api.md, "Two-factor sign-in"); an administrator's side is in userSecondFactorRoutes.ts. */
export async function twoFactorRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const key = totpKey(app.config.jwtSecret);
  const tags = ['Session'];
  const own = (request: FastifyRequest) => currentUser(request).id;
  const ownCode =
    (request: FastifyRequest<{ Body: { code: string } }>) => (tx: Parameters<typeof acceptSecondFactor>[0]) =>
      acceptSecondFactor(tx, key, own(request), request.body.code);

  app.get('/user/two-factor', {
    config: { access: 'enrolling' },
    schema: {
      tags,
      operationId: 'getTwoFactor',
      summary: 'Whether two-factor sign-in is on',
      response: { 200: statusAnswer, ...errorAnswers(401) },
    },
    handler: async (request) => ({ data: await twoFactorStatus(db, own(request)) }),
  });

  app.post('/user/two-factor/totp', {
    config: {
      access: 'enrolling',
      audit: { none: 'Keeps a secret awaiting its first code; turning two-factor sign-in on (confirm) is audited.' },
    },
    schema: {
      tags,
      operationId: 'startTotpEnrolment',
      summary: 'Start enrolling an authenticator app',
      description: 'A new secret each time, until one is confirmed; 409 when two-factor sign-in is already on.',
      response: { 200: enrolmentAnswer, ...errorAnswers(401, 409) },
    },
    handler: async (request) => {
      const user = currentUser(request);
      const { secret, uri, qr } = await newTotpSecret(user.email);
      const started = await db.transaction((tx) => startEnrolment(tx, key, user.id, secret));
      if (!started) throw conflict('Two-factor sign-in is already on. Turn it off first to enrol another app.');
      return { data: { secret, otpauth_uri: uri, qr_code: qr } };
    },
  });

  app.post<{ Body: { code: string } }>('/user/two-factor/totp/confirm', {
    config: { access: 'enrolling', audit: { action: 'two_factor_on' } },
    schema: {
      tags,
      operationId: 'confirmTotpEnrolment',
      summary: 'Turn two-factor sign-in on with a first code',
      description: 'Answers the ten recovery codes, shown this once. Wrong codes are throttled (429).',
      body: codeBody,
      response: { 200: recoveryCodesAnswer, ...errorAnswers(400, 401, 409, 429) },
    },
    handler: async (request) => {
      const userId = own(request);
      if (await totpOn(db, userId)) throw conflict('Two-factor sign-in is already on.');
      const codes = await withCodeCheck(app, request, userId, WRONG_CODE, async (tx) => {
        if (!(await acceptTotpCode(tx, key, userId, request.body.code, { pending: true }))) return { right: false };
        const value = await confirmEnrolment(tx, userId);
        await auditUser(tx, actorOf(request), userId, 'two_factor_on');
        return { right: true, value };
      });
      return { data: { recovery_codes: codes }, message: RECOVERY_MESSAGE };
    },
  });

  app.delete<{ Body: { code: string } }>('/user/two-factor', {
    config: { access: 'signed-in', audit: { action: 'two_factor_off' } },
    schema: {
      tags,
      operationId: 'turnOffTwoFactor',
      summary: 'Turn two-factor sign-in off',
      description:
        'With a code of the app or a recovery code; wrong codes are throttled (429). 409 when it is off, or when it is the last second factor of a user whose role requires one.',
      body: codeBody,
      response: { 200: messageAnswer('Turned off.'), ...errorAnswers(400, 401, 409, 429) },
    },
    handler: async (request) => {
      const userId = own(request);
      if (!(await totpOn(db, userId))) throw conflict('Two-factor sign-in is not on.');
      const check = ownCode(request);
      await withCodeCheck(app, request, userId, WRONG_CODE, async (tx) => {
        if (!(await check(tx))) return { right: false };
        await removeSecondFactor(tx, userId);
        // Within the change, so a refusal leaves the app on: another factor (a passkey) may still keep the rule.
        if ((await roleRequiresTwoFactor(tx, userId)) && !(await hasSecondFactor(tx, userId))) throw LAST_FACTOR();
        await auditUser(tx, actorOf(request), userId, 'two_factor_off');
        return { right: true, value: null };
      });
      return { message: 'Two-factor sign-in is off. You sign in with your password alone.' };
    },
  });

  app.post<{ Body: { code: string } }>('/user/two-factor/recovery-codes', {
    config: { access: 'signed-in', audit: { action: 'recovery_codes' } },
    schema: {
      tags,
      operationId: 'renewRecoveryCodes',
      summary: 'New recovery codes',
      description: 'With a code of the app or a recovery code; the earlier codes stop working. 409 when it is off.',
      body: codeBody,
      response: { 200: recoveryCodesAnswer, ...errorAnswers(400, 401, 409, 429) },
    },
    handler: async (request) => {
      const userId = own(request);
      if (!(await totpOn(db, userId))) throw conflict('Two-factor sign-in is not on.');
      const check = ownCode(request);
      const codes = await withCodeCheck(app, request, userId, WRONG_CODE, async (tx) => {
        if (!(await check(tx))) return { right: false };
        const value = await replaceRecoveryCodes(tx, userId);
        await auditUser(tx, actorOf(request), userId, 'recovery_codes');
        return { right: true, value };
      });
      return { data: { recovery_codes: codes }, message: RECOVERY_MESSAGE };
    },
  });
}
