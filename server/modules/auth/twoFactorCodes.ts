import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import { HttpError } from '../../http/errors.ts';
import { clientOf, recordRefusedSignIn } from './signIns.ts';
import { loginSucceeded, reserveLoginAttempt } from './throttle.ts';

/**
 * The throttle's key for a user's second-factor codes: their own count, apart from the password's, so that knowing
 * the password (whose success starts its count afresh) does not lift the limit on guessing codes.
 */
export const codeThrottleKey = (userId: number) => `two-factor:${userId}`;

/**
 * Checks a code, throttled per user and per client as passwords are: the attempt is counted before the check and a
 * right code takes its count back. `check` runs in a transaction and answers whether the code was right; a wrong code
 * is recorded (by `onWrong`) and its transaction kept, then `wrong` is thrown. At sign-in (`onWrong` given), wrong and
 * throttled codes are in the sign-in history too; a code typed on the profile is no sign-in.
 */
export async function withCodeCheck<T>(
  { db }: Pick<FastifyInstance, 'db'>,
  request: FastifyRequest,
  userId: number,
  wrong: () => HttpError,
  check: (tx: Queryable) => Promise<{ right: true; value: T } | { right: false }>,
  onWrong?: (tx: Queryable) => Promise<unknown>,
): Promise<T> {
  const key = codeThrottleKey(userId);
  try {
    await reserveLoginAttempt(db, key, request.ip);
  } catch (error) {
    if (onWrong && error instanceof HttpError && error.statusCode === 429)
      await recordRefusedSignIn(db, userId, 'throttled', clientOf(request));
    throw error;
  }
  const outcome = await db.transaction(async (tx) => {
    const result = await check(tx);
    if (!result.right && onWrong) {
      await recordRefusedSignIn(tx, userId, 'wrong_code', clientOf(request));
      await onWrong(tx);
    }
    return result;
  });
  if (!outcome.right) throw wrong();
  await loginSucceeded(db, key, request.ip);
  return outcome.value;
}
