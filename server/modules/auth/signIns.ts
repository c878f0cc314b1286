import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { SignInAnswer, SignInOutcome } from '../../../contract/signIns.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { HOUR_MILLISECONDS, PeriodicJob } from '../../jobs/periodicJob.ts';
import { queueMail } from '../mail/outbox.ts';
import { describeBrowser } from './browser.ts';
import { PRODUCT_NAME, noticeMessage } from './linkMessages.ts';

/** How long the sign-in history keeps an attempt (docs/api.md, "Sessions and sign-in history"). */
export const SIGN_IN_HISTORY_DAYS = 180;

/** Where a request comes from: the address Fastify reads (through TRUST_PROXY) and the raw User-Agent. */
export interface SignInClient {
  address: string | null;
  userAgent: string | null;
}

export function clientOf(request: FastifyRequest): SignInClient {
  const agent = request.headers['user-agent'];
  return { address: request.ip || null, userAgent: agent ? agent.slice(0, 1000) : null };
}

/** Records an attempt that did not sign the user in. */
export async function recordRefusedSignIn(
  db: Queryable,
  userId: number,
  outcome: Exclude<SignInOutcome, 'success'>,
  client: SignInClient,
): Promise<void> {
  await insertSignIn(db, userId, outcome, client, null);
}

/**
 * The attempt of the active account a typed address names, if one does. One statement whether or not it does, so a
 * refusal takes as long for an unknown address as for a wrong password (nothing tells a stranger which it was).
 */
export async function recordRefusedSignInByEmail(
  db: Queryable,
  account: string,
  outcome: Exclude<SignInOutcome, 'success'>,
  client: SignInClient,
): Promise<void> {
  await db.query(
    `INSERT INTO sign_ins (user_id, outcome, client_address, user_agent, browser_family)
     SELECT id, $2, $3, $4, $5 FROM users WHERE lower(email) = $1 AND is_active`,
    [account, outcome, client.address, client.userAgent, describeBrowser(client.userAgent).family],
  );
}

interface SignedInUser {
  id: number;
  email: string;
  first_name: string | null;
}

/**
 * Records a successful sign-in, in the transaction that starts its session. A browser is new when the user signed
 * in before but never, within the history kept, with this browser on this system (versions aside); the user is then
 * e-mailed, in the same transaction. Their very first sign-in sends nothing: every browser would be new.
 */
export async function recordSuccessfulSignIn(
  tx: Queryable,
  user: SignedInUser,
  client: SignInClient,
  sessionId: string,
): Promise<void> {
  const family = describeBrowser(client.userAgent).family;
  const [earlier] = await tx.query<{ any_success: boolean; same_browser: boolean }>(
    `SELECT count(*) > 0 AS any_success, count(*) FILTER (WHERE browser_family = $2) > 0 AS same_browser
       FROM sign_ins WHERE user_id = $1 AND outcome = 'success'`,
    [user.id, family],
  );
  await insertSignIn(tx, user.id, 'success', client, sessionId);
  if (earlier?.any_success && !earlier.same_browser) await queueMail(tx, newBrowserMessage(user, client));
}

async function insertSignIn(
  db: Queryable,
  userId: number,
  outcome: SignInOutcome,
  client: SignInClient,
  sessionId: string | null,
): Promise<void> {
  await db.query(
    `INSERT INTO sign_ins (user_id, outcome, client_address, user_agent, browser_family, session_id)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [userId, outcome, client.address, client.userAgent, describeBrowser(client.userAgent).family, sessionId],
  );
}

/** A page of a user's attempts, newest first. */
export async function listSignIns(
  db: Queryable,
  userId: number,
  page: number,
  pageSize: number,
): Promise<{ data: SignInAnswer[]; total: number }> {
  const [rows, counted] = await Promise.all([
    db.query<Omit<SignInAnswer, 'browser'>>(
      `SELECT id, at, outcome, client_address, user_agent FROM sign_ins
        WHERE user_id = $1 ORDER BY at DESC, id DESC LIMIT $2 OFFSET $3`,
      [userId, pageSize, (page - 1) * pageSize],
    ),
    db.query<{ total: number }>('SELECT count(*)::int AS total FROM sign_ins WHERE user_id = $1', [userId]),
  ]);
  return {
    data: rows.map((row) => ({ ...row, id: Number(row.id), browser: describeBrowser(row.user_agent).description })),
    total: Number(counted[0]?.total ?? 0),
  };
}

/** Deletes the attempts older than `days`; answers how many went. */
export async function purgeOldSignIns(db: Queryable, days = SIGN_IN_HISTORY_DAYS): Promise<number> {
  const purged = await db.query('DELETE FROM sign_ins WHERE at < now() - make_interval(days => $1) RETURNING id', [
    days,
  ]);
  return purged.length;
}

/** Purges the history at start and every hour, in every instance (a second delete of the same rows finds none). */
export function signInHistoryPurge(db: Database, log: FastifyBaseLogger): PeriodicJob {
  return new PeriodicJob(
    'sign-in history purge',
    async () => {
      const purged = await purgeOldSignIns(db);
      if (purged > 0)
        log.info({ purged, keptDays: SIGN_IN_HISTORY_DAYS }, 'sign-in attempts past their keeping dropped');
    },
    HOUR_MILLISECONDS,
    log,
  );
}

function newBrowserMessage(user: SignedInUser, client: SignInClient) {
  const browser = describeBrowser(client.userAgent).description;
  const greeting = user.first_name ? `Hello ${user.first_name},` : 'Hello,';
  const lines = [
    greeting,
    `Your ${PRODUCT_NAME} account (${user.email}) was signed in to from a browser it was not used with before: ${browser}, from ${client.address ?? 'an unknown address'}.`,
    'If it was you, there is nothing to do. If not, change your password now: that signs out every other session. Your profile lists your sessions and recent sign-ins.',
    `— ${PRODUCT_NAME}`,
  ];
  return noticeMessage(user.email, `A new sign-in to your ${PRODUCT_NAME} account`, lines);
}
