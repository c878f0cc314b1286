import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import { HttpError } from '../../http/errors.ts';
import { queueMail } from '../mail/outbox.ts';
import { linkMessage, type LinkPurpose } from './linkMessages.ts';
import { hashToken, newOpaqueToken } from './tokens.ts';

/** The console screen each e-mailed link opens (src/routing/appRoutes.tsx, under /auth). */
const LINK_SCREENS: Record<LinkPurpose, string> = {
  reset_password: '/auth/reset-password',
  verify_email: '/auth/verify-email',
};

/** At most this many links of one purpose are sent to a user in an hour, whoever asks. */
export const LINKS_PER_HOUR = 5;
/** A link asked for without signing in (forgotten password, "send the link again") waits this long after the last. */
export const PUBLIC_LINK_SPACING_SECONDS = 60;

/** The address an e-mailed link carries: the console's screen for `purpose` on `origin`, with the token. */
export function emailLinkUrl(origin: string, purpose: LinkPurpose, token: string): string {
  return `${origin}${LINK_SCREENS[purpose]}?token=${encodeURIComponent(token)}`;
}

/** Links in e-mails use the configured public URL, never the request's Host header (which a caller controls). */
export function publicOrigin(app: FastifyInstance): string {
  return (app.config.publicUrl ?? `http://localhost:${app.config.port}`).replace(/\/$/, '');
}

export const LINK_INVALID = 'This link has expired or was already used.';

/** Creates a single-use link token for a user; only its hash is stored. */
export async function createEmailLink(
  db: Queryable,
  userId: number,
  purpose: LinkPurpose,
  lifetimeSeconds: number,
): Promise<{ token: string; expiresAt: Date }> {
  const { token, hash } = newOpaqueToken();
  const [row] = await db.query<{ expires_at: string }>(
    `INSERT INTO email_links (token_hash, purpose, user_id, expires_at) VALUES ($1, $2, $3, now() + $4 * interval '1 second') RETURNING expires_at`,
    [hash, purpose, userId, lifetimeSeconds],
  );
  return { token, expiresAt: new Date(row!.expires_at) };
}

export interface LinkRecipient {
  id: number;
  email: string;
  first_name: string | null;
  /** False for an account created without a password: its verification link is an invitation to choose one. */
  password_set?: boolean;
}

/**
 * Creates a link for `user` and writes its e-mail to the outbox, in the caller's transaction: the link exists only if
 * the e-mail will go out, and the other way round.
 */
export async function sendEmailLink(
  app: FastifyInstance,
  tx: Queryable,
  user: LinkRecipient,
  purpose: LinkPurpose,
): Promise<void> {
  const lifetimeSeconds = purpose === 'reset_password' ? app.config.resetLinkSeconds : app.config.verifyLinkSeconds;
  const { token, expiresAt } = await createEmailLink(tx, user.id, purpose, lifetimeSeconds);
  const link = emailLinkUrl(publicOrigin(app), purpose, token);
  const wording = purpose === 'verify_email' && user.password_set === false ? 'invite' : purpose;
  await queueMail(
    tx,
    linkMessage(wording, { to: user.email, firstName: user.first_name, link, lifetimeSeconds, expiresAt }),
  );
}

/**
 * Seconds until another link of `purpose` may be sent to the user (0: now): at most LINKS_PER_HOUR an hour, and
 * `spacingSeconds` after the last one. The caller holds the user's row lock, so two requests cannot both pass.
 */
export async function linkWaitSeconds(
  tx: Queryable,
  userId: number,
  purpose: LinkPurpose,
  spacingSeconds: number,
): Promise<number> {
  const [row] = await tx.query<{ wait: number | null }>(
    `SELECT greatest(
              extract(epoch FROM max(created_at) + $3 * interval '1 second' - now()),
              extract(epoch FROM (array_agg(created_at ORDER BY created_at DESC))[$4] + interval '1 hour' - now()),
              0)::float8 AS wait
       FROM email_links WHERE user_id = $1 AND purpose = $2 AND created_at > now() - interval '1 hour'`,
    [userId, purpose, spacingSeconds, LINKS_PER_HOUR],
  );
  return Math.ceil(row?.wait ?? 0);
}

/** The user a live link belongs to, without using it up (check-link). */
export async function peekEmailLink(
  db: Queryable,
  token: string,
  purpose: LinkPurpose,
): Promise<{ userId: number; email: string }> {
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
