import type { Queryable } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';

/** A user's own profile: their names, address, mobile and their role's name. */
export interface UserProfile {
  id: number;
  first_name: string | null;
  last_name: string | null;
  email: string;
  mobile: string | null;
  role: string | null;
}

/** Whether a user's address is verified, and the last verification link sent to it. */
export interface EmailVerificationStatus {
  email: string;
  verified_at: string | null;
  last_link_sent_at: string | null;
  last_link_expires_at: string | null;
}

/** A user as a verification link is sent to them, their row held until the transaction ends. */
export interface VerificationRecipient {
  id: number;
  email: string;
  first_name: string | null;
  is_active: boolean;
  verified: boolean;
  password_set: boolean;
}

export async function userProfile(db: Queryable, id: number): Promise<UserProfile | undefined> {
  const [row] = await db.query<UserProfile & Record<string, unknown>>(
    `SELECT u.id, u.first_name, u.last_name, u.email, u.mobile, r.name AS role
       FROM users u LEFT JOIN roles r ON r.id = u.role_id WHERE u.id = $1`,
    [id],
  );
  return row;
}

/** The stored hash of the user's password; null when they have none (or no such user). */
export async function passwordHashOf(db: Queryable, id: number): Promise<string | null> {
  const [row] = await db.query<{ password_hash: string | null }>('SELECT password_hash FROM users WHERE id = $1', [id]);
  return row?.password_hash ?? null;
}

/**
 * Users as a filter offers them, by address: the key is the id, the label the name with the address (the address
 * alone when no name is set); only `onlyId` when given, at most 1000.
 */
export async function userChoices(db: Queryable, onlyId: number | null): Promise<{ key: number; label: string }[]> {
  return db.query<{ key: number; label: string }>(
    `SELECT id AS key, coalesce(nullif(trim(concat_ws(' ', first_name, last_name)), '') || ' (' || email || ')', email) AS label
       FROM users WHERE $1::bigint IS NULL OR id = $1 ORDER BY lower(email) LIMIT 1000`,
    [onlyId],
  );
}

export async function lockVerificationRecipient(tx: Queryable, id: number): Promise<VerificationRecipient | undefined> {
  const [user] = await tx.query<VerificationRecipient & Record<string, unknown>>(
    'SELECT id, email, first_name, is_active, email_verified_at IS NOT NULL AS verified, password_hash IS NOT NULL AS password_set FROM users WHERE id = $1 FOR UPDATE',
    [id],
  );
  return user;
}

export async function emailVerificationStatus(db: Queryable, userId: number): Promise<EmailVerificationStatus> {
  const [status] = await db.query<EmailVerificationStatus & Record<string, unknown>>(
    `SELECT u.email, u.email_verified_at AS verified_at, l.created_at AS last_link_sent_at, l.expires_at AS last_link_expires_at
       FROM users u
       LEFT JOIN LATERAL (SELECT created_at, expires_at FROM email_links
                           WHERE user_id = u.id AND purpose = 'verify_email' ORDER BY created_at DESC LIMIT 1) l ON true
      WHERE u.id = $1`,
    [userId],
  );
  if (!status) throw notFound('User');
  return status;
}
