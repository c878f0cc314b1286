import type { Queryable } from '../../db/database.ts';
import type { MailboxEntry } from '../../../contract/mailbox.ts';

/** A message as the product writes it: plain text and HTML, and when the link it carries stops working. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Undelivered by then, the message is failed rather than sent with a dead link; null: no link that expires. */
  expiresAt: Date | null;
}

/** A message claimed for sending, with what every attempt reuses (its Message-ID). */
export interface ClaimedMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  /** The same on every attempt, so a receiving system can tell a repeat (docs/api.md, "E-mail"). */
  messageKey: string;
  /** This attempt's number, from 1. */
  attempt: number;
}

/**
 * Writes a message to the outbox, in the caller's transaction: it is delivered only if that transaction commits, and
 * from then on by whichever instance claims it.
 */
export async function queueMail(db: Queryable, message: MailMessage): Promise<void> {
  await db.query(
    `INSERT INTO outbox (recipient, subject, body, html, expires_at, message_id, state, next_attempt_at)
     VALUES ($1, $2, $3, $4, $5, gen_random_uuid()::text, 'pending', now())`,
    [message.to, message.subject, message.text, message.html, message.expiresAt?.toISOString() ?? null],
  );
}

/**
 * Claims up to `limit` messages that are due: pending ones whose next attempt has come, and sending ones whose claim
 * ran out (their instance stopped mid-send). Rows another instance is claiming at this moment are skipped, not waited
 * for; each claimed row is marked `sending` under `claimId` until `claimMilliseconds` from now.
 */
export async function claimDueMail(
  db: Queryable,
  claimId: string,
  claimMilliseconds: number,
  limit: number,
): Promise<ClaimedMail[]> {
  const rows = await db.query<{
    id: number;
    recipient: string;
    subject: string;
    body: string;
    html: string | null;
    message_id: string;
    attempts: number;
  }>(
    `UPDATE outbox SET state = 'sending', claim_id = $1, attempts = attempts + 1,
            next_attempt_at = now() + $2 * interval '1 millisecond'
      WHERE id IN (SELECT id FROM outbox WHERE state IN ('pending', 'sending') AND next_attempt_at <= now()
                    ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
      RETURNING id, recipient, subject, body, html, message_id, attempts`,
    [claimId, claimMilliseconds, limit],
  );
  return rows
    .sort((a, b) => a.id - b.id)
    .map((row) => ({
      id: row.id,
      to: row.recipient,
      subject: row.subject,
      text: row.body,
      html: row.html,
      messageKey: row.message_id,
      attempt: row.attempts,
    }));
}

/**
 * Fails, without sending, the due messages that are past their link's expiry or older than `giveUpAfterMilliseconds`,
 * keeping the last attempt's error in the reason.
 */
export async function failOverdueMail(db: Queryable, giveUpAfterMilliseconds: number): Promise<number> {
  const failed = await db.query(
    `UPDATE outbox SET state = 'failed', failed_at = now(), claim_id = NULL,
            last_error = CASE WHEN expires_at <= now() THEN 'Not delivered before its link expired.' ELSE 'Not delivered in time; gave up.' END
                         || coalesce(' Last attempt: ' || last_error, '')
      WHERE state IN ('pending', 'sending') AND next_attempt_at <= now()
        AND (expires_at <= now() OR created_at < now() - $1 * interval '1 millisecond')
      RETURNING id`,
    [giveUpAfterMilliseconds],
  );
  return failed.length;
}

/** The outcome of one attempt, recorded only while the claim is still this instance's (true when it was). */
export async function markSent(
  db: Queryable,
  mail: ClaimedMail,
  claimId: string,
  via: 'smtp' | 'console',
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE outbox SET state = 'sent', sent_at = now(), sent_via = $3, claim_id = NULL, last_error = NULL WHERE id = $1 AND claim_id = $2 RETURNING id`,
    [mail.id, claimId, via],
  );
  return rows.length === 1;
}

export async function markRetry(
  db: Queryable,
  mail: ClaimedMail,
  claimId: string,
  delayMilliseconds: number,
  reason: string,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE outbox SET state = 'pending', claim_id = NULL, last_error = $4, next_attempt_at = now() + $3 * interval '1 millisecond'
      WHERE id = $1 AND claim_id = $2 RETURNING id`,
    [mail.id, claimId, delayMilliseconds, reason],
  );
  return rows.length === 1;
}

export async function markFailed(db: Queryable, mail: ClaimedMail, claimId: string, reason: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE outbox SET state = 'failed', failed_at = now(), claim_id = NULL, last_error = $3 WHERE id = $1 AND claim_id = $2 RETURNING id`,
    [mail.id, claimId, reason],
  );
  return rows.length === 1;
}

/** The web addresses in a message's text: what a developer opens from the console or the mailbox. */
export function linksIn(text: string): string[] {
  return text.match(/https?:\/\/[^\s<>"]+/g) ?? [];
}

/** The newest messages of the outbox, newest first. */
export async function recentMail(db: Queryable, limit: number): Promise<MailboxEntry[]> {
  const rows = await db.query<Omit<MailboxEntry, 'links'> & Record<string, unknown>>(
    `SELECT id, recipient, subject, body AS text, state, attempts, created_at, sent_at, sent_via, last_error
       FROM outbox ORDER BY created_at DESC, id DESC LIMIT $1`,
    [limit],
  );
  return rows.map((row) => ({ ...row, links: linksIn(row.text) }));
}

/** How many messages of the outbox are in each state but `sent`. */
export async function unsentMailCounts(db: Queryable): Promise<Map<string, number>> {
  const rows = await db.query<{ state: string; count: number }>(
    `SELECT state, count(*)::int AS count FROM outbox WHERE state <> 'sent' GROUP BY state`,
  );
  return new Map(rows.map((row) => [row.state, row.count]));
}
