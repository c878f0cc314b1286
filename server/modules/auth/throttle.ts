import type { Database, Queryable } from '../../db/database.ts';
import { tooManyRequests } from '../../http/errors.ts';

/** At most this many failed logins per account per hour (brute-force protection, beyond docs/spec/seed-spec.md). */
export const MAX_FAILURES_PER_HOUR = 100;
/** From this failure on, each further failure locks the account for a doubling delay. */
export const BACKOFF_FROM_FAILURE = 5;
/**
 * One client (address) may fail more often than one account: it may be an office behind one address, and its
 * attempts in flight count until their passwords are checked, so many people signing in at once must stay under it.
 */
export const CLIENT_MAX_FAILURES_PER_HOUR = 1000;
export const CLIENT_BACKOFF_FROM_FAILURE = 100;
const MAX_BACKOFF_SECONDS = 300;

interface ThrottleRule {
  table: 'login_throttle' | 'client_login_throttle';
  key: 'account' | 'client';
  backoffFrom: number;
  maxPerHour: number;
}

const BY_ACCOUNT: ThrottleRule = {
  table: 'login_throttle',
  key: 'account',
  backoffFrom: BACKOFF_FROM_FAILURE,
  maxPerHour: MAX_FAILURES_PER_HOUR,
};
const BY_CLIENT: ThrottleRule = {
  table: 'client_login_throttle',
  key: 'client',
  backoffFrom: CLIENT_BACKOFF_FROM_FAILURE,
  maxPerHour: CLIENT_MAX_FAILURES_PER_HOUR,
};

/**
 * Login throttling per account and per client, kept in the database so that every instance sees the same counts.
 * The account is the e-mail as typed (lowercased) whether or not it exists, so an unknown address and a wrong
 * password are throttled alike.
 *
 * An attempt is counted as a failure before its password is checked, in the same statement that checks the lock, so
 * parallel attempts cannot all pass a check made before any of them was recorded: of N at once, only those counted
 * before the lock fell are checked. A correct password takes its count back (`loginSucceeded`).
 */
export async function reserveLoginAttempt(db: Database, account: string, client: string): Promise<void> {
  const refusedFor = await db.transaction(async (tx) => {
    for (const [rule, value] of [
      [BY_CLIENT, client],
      [BY_ACCOUNT, account],
    ] as const) {
      if (!(await countAttempt(tx, rule, value))) return lockWait(tx, rule, value);
    }
    return null;
  });
  // Thrown outside the transaction: a refused attempt is not counted against the other key either.
  if (refusedFor !== null) throw tooManyRequests(refusedFor);
}

/** The password matched: the account starts afresh and the client's count of this attempt is taken back. */
export async function loginSucceeded(db: Queryable, account: string, client: string): Promise<void> {
  await clearAccountFailures(db, account);
  await db.query(
    `UPDATE client_login_throttle SET failures = greatest(failures - 1, 0),
            locked_until = CASE WHEN failures - 1 >= $2 THEN locked_until ELSE NULL END
      WHERE client = $1`,
    [client, CLIENT_BACKOFF_FROM_FAILURE],
  );
}

/** A new password (reset by e-mail) lifts the account's lock. */
export async function clearAccountFailures(db: Queryable, account: string): Promise<void> {
  await db.query('DELETE FROM login_throttle WHERE account = $1', [account]);
}

/** Counts one attempt unless the key is locked now; false when it is. One statement, so each attempt counts once. */
async function countAttempt(tx: Queryable, rule: ThrottleRule, value: string): Promise<boolean> {
  const expired = `t.window_started < now() - interval '1 hour'`;
  const failures = `(CASE WHEN ${expired} THEN 1 ELSE t.failures + 1 END)`;
  const windowStarted = `(CASE WHEN ${expired} THEN now() ELSE t.window_started END)`;
  const counted = await tx.query(
    `INSERT INTO ${rule.table} AS t (${rule.key}, failures, window_started) VALUES ($1, 1, now())
     ON CONFLICT (${rule.key}) DO UPDATE SET
       failures = ${failures},
       window_started = ${windowStarted},
       locked_until = CASE
         WHEN ${failures} >= $2 THEN ${windowStarted} + interval '1 hour'
         WHEN ${failures} >= $3 THEN now() + least(power(2, ${failures} - $3), $4) * interval '1 second'
         ELSE NULL END
     WHERE t.locked_until IS NULL OR t.locked_until <= now()
     RETURNING 1`,
    [value, rule.maxPerHour, rule.backoffFrom, MAX_BACKOFF_SECONDS],
  );
  return counted.length === 1;
}

async function lockWait(tx: Queryable, rule: ThrottleRule, value: string): Promise<number> {
  const [row] = await tx.query<{ wait: number }>(
    `SELECT extract(epoch FROM locked_until - now())::float8 AS wait FROM ${rule.table} WHERE ${rule.key} = $1`,
    [value],
  );
  return Math.max(row?.wait ?? 1, 1);
}
