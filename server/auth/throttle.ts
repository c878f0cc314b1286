import type { Queryable } from '../db/database.ts';
import { tooManyRequests } from '../http/errors.ts';

/** At most this many failed logins per account per hour (spec: brute-force protection). */
export const MAX_FAILURES_PER_HOUR = 100;
/** From this failure on, each further failure locks the account for a doubling delay. */
export const BACKOFF_FROM_FAILURE = 5;
const MAX_BACKOFF_SECONDS = 300;

/**
 * Login throttling per account, kept in the database so that every instance sees the same counts.
 * The account is the e-mail as typed (lowercased) whether or not it exists, so an unknown address and a wrong
 * password are throttled alike.
 */
export async function assertNotThrottled(db: Queryable, account: string): Promise<void> {
  const [row] = await db.query<{ wait: number }>(
    `SELECT extract(epoch FROM locked_until - now())::float8 AS wait FROM login_throttle WHERE account = $1 AND locked_until > now()`,
    [account],
  );
  if (row) throw tooManyRequests(row.wait);
}

export async function recordFailedLogin(db: Queryable, account: string): Promise<void> {
  // One statement, so concurrent failures on several instances each count once.
  const expired = `t.window_started < now() - interval '1 hour'`;
  const failures = `(CASE WHEN ${expired} THEN 1 ELSE t.failures + 1 END)`;
  const windowStarted = `(CASE WHEN ${expired} THEN now() ELSE t.window_started END)`;
  await db.query(
    `INSERT INTO login_throttle AS t (account, failures, window_started) VALUES ($1, 1, now())
     ON CONFLICT (account) DO UPDATE SET
       failures = ${failures},
       window_started = ${windowStarted},
       locked_until = CASE
         WHEN ${failures} >= $2 THEN ${windowStarted} + interval '1 hour'
         WHEN ${failures} >= $3 THEN now() + least(power(2, ${failures} - $3), $4) * interval '1 second'
         ELSE NULL END`,
    [account, MAX_FAILURES_PER_HOUR, BACKOFF_FROM_FAILURE, MAX_BACKOFF_SECONDS],
  );
}

export async function clearFailedLogins(db: Queryable, account: string): Promise<void> {
  await db.query('DELETE FROM login_throttle WHERE account = $1', [account]);
}
