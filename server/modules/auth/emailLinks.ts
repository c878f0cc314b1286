import type { Queryable } from '../../db/database.ts';
import { HttpError } from '../../http/errors.ts';
import { hashToken, newOpaqueToken } from './tokens.ts';

export type LinkPurpose = 'reset_password' | 'verify_email';

/** The console screen each e-mailed link opens (src/routing/appRoutes.tsx, under /auth). */
const LINK_SCREENS: Record<LinkPurpose, string> = { reset_password: '/auth/reset-password', verify_email: '/auth/verify-email' };

/** The address an e-mailed link carries: the console's screen for `purpose` on `origin`, with the token. */
export function emailLinkUrl(origin: string, purpose: LinkPurpose, token: string): string {
  return `${origin}${LINK_SCREENS[purpose]}?token=${encodeURIComponent(token)}`;
}

export const LINK_INVALID = 'This link has expired or was already used.';

/** Creates a single-use link token for a user; only its hash is stored. */
export async function createEmailLink(db: Queryable, userId: number, purpose: LinkPurpose, lifetimeSeconds: number): Promise<string> {
  const { token, hash } = newOpaqueToken();
  await db.query(
    `INSERT INTO email_links (token_hash, purpose, user_id, expires_at) VALUES ($1, $2, $3, now() + $4 * interval '1 second')`,
    [hash, purpose, userId, lifetimeSeconds],
  );
  return token;
}

/** The user a live link belongs to, without using it up (check-link). */
export async function peekEmailLink(db: Queryable, token: string, purpose: LinkPurpose): Promise<{ userId: number; email: string }> {
  const [row] = await db.query<{ user_id: number; email: string }>(
    `SELECT l.user_id, u.email FROM email_links l JOIN users u ON u.id = l.user_id
      WHERE l.token_hash = $1 AND l.purpose = $2 AND l.used_at IS NULL AND l.expires_at > now() AND u.is_active`,
    [hashToken(token), purpose],
  );
  if (!row) throw new HttpError(400, LINK_INVALID);
  return { userId: row.user_id, email: row.email };
}

/** Uses a link up, atomically, so two requests with the same link cannot both succeed. */
export async function consumeEmailLink(db: Queryable, token: string, purpose: LinkPurpose): Promise<number> {
  const [row] = await db.query<{ user_id: number }>(
    `UPDATE email_links SET used_at = now()
      WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
      RETURNING user_id`,
    [hashToken(token), purpose],
  );
  if (!row) throw new HttpError(400, LINK_INVALID);
  return row.user_id;
}

/** Mail goes to the outbox table (a mailer would drain it); in development it is also logged. */
export async function sendMail(db: Queryable, recipient: string, subject: string, body: string): Promise<void> {
  await db.query('INSERT INTO outbox (recipient, subject, body) VALUES ($1, $2, $3)', [recipient, subject, body]);
}
