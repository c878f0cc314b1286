import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MODULE } from '../../../contract/modules.ts';
import { HttpError, unauthorized } from '../../http/errors.ts';
import { actorOf, recordAudit, type AuditEntry } from '../audit/record.ts';
import type { LinkRecipient } from './emailLinks.ts';
import { clientOf, recordRefusedSignInByEmail } from './signIns.ts';
import { loginSucceeded, reserveLoginAttempt } from './throttle.ts';

const INVALID_LOGIN = 'Invalid email or password.';

interface SigningInUser extends LinkRecipient {
  verified: boolean;
}

/**
 * The active user these credentials are, throttled per account and client like every sign-in; 401 otherwise, after a
 * `login_failed` entry (the attempt was already counted by the throttle, which commits it whatever the answer).
 */
export async function checkCredentials(
  { db, passwords }: Pick<FastifyInstance, 'db' | 'passwords'>,
  request: FastifyRequest,
  email: string,
  password: string,
): Promise<SigningInUser> {
  const account = email.trim().toLowerCase();
  const client = request.ip;
  try {
    await reserveLoginAttempt(db, account, client);
  } catch (error) {
    // A throttled attempt is in the account's sign-in history too: someone may be guessing its password.
    if (error instanceof HttpError && error.statusCode === 429)
      await recordRefusedSignInByEmail(db, account, 'throttled', clientOf(request));
    throw error;
  }
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
    await db.transaction(async (tx) => {
      await recordAudit(tx, actorOf(request), signInRefused(account, user?.id ?? null, 'wrong_credentials'));
      await recordRefusedSignInByEmail(tx, account, 'wrong_password', clientOf(request));
    });
    throw unauthorized(INVALID_LOGIN);
  }
  await loginSucceeded(db, account, client);
  return { id: user.id, email: user.email, first_name: user.first_name, verified: user.verified };
}

/** A refused sign-in: by nobody known (the caller proved no identity), about the account tried if it exists. */
export function signInRefused(
  email: string,
  userId: number | null,
  reason: 'wrong_credentials' | 'email_not_verified',
): AuditEntry {
  return { module: MODULE.users, recordId: userId, action: 'login_failed', details: { email, reason } };
}
