import type { Queryable } from '../../db/database.ts';
import { decryptSecret, encryptSecret, hashRecoveryCode, newRecoveryCodes, totpStep } from './totp.ts';
import { hashToken, newOpaqueToken } from './tokens.ts';

export type SecondStepMethod = 'totp' | 'recovery_code' | 'passkey';

/** How long the token a correct password answers stays usable for the second step. */
export const MFA_TOKEN_SECONDS = 5 * 60;

export interface TwoFactorStatus {
  enabled: boolean;
  methods: Array<'totp' | 'recovery_code'>;
  recovery_codes_left: number;
  enabled_at: string | null;
  /** The user's role requires a second factor (roles.requires_two_factor). */
  required: boolean;
}

export async function twoFactorStatus(db: Queryable, userId: number): Promise<TwoFactorStatus> {
  const [row] = await db.query<{ confirmed_at: string | null; left: number; required: boolean }>(
    `SELECT t.confirmed_at, ro.requires_two_factor IS TRUE AS required,
            (SELECT count(*)::int FROM user_recovery_codes r WHERE r.user_id = $1 AND r.used_at IS NULL) AS left
       FROM users u LEFT JOIN user_totp t ON t.user_id = u.id LEFT JOIN roles ro ON ro.id = u.role_id
      WHERE u.id = $1`,
    [userId],
  );
  const enabled = Boolean(row?.confirmed_at);
  return {
    enabled,
    methods: enabled ? ['totp', 'recovery_code'] : [],
    recovery_codes_left: enabled ? Number(row?.left ?? 0) : 0,
    enabled_at: enabled ? new Date(row!.confirmed_at!).toISOString() : null,
    required: row?.required === true,
  };
}

/** Starts (or starts again) an enrolment not confirmed yet; an enabled second factor must be turned off first. */
export async function startEnrolment(tx: Queryable, key: Buffer, userId: number, secret: string): Promise<boolean> {
  const saved = await tx.query(
    `INSERT INTO user_totp (user_id, secret) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, last_step = NULL, created_at = now()
       WHERE user_totp.confirmed_at IS NULL
     RETURNING 1`,
    [userId, encryptSecret(key, secret)],
  );
  return saved.length === 1;
}

/**
 * Accepts a TOTP code of the user's secret once: its time step must be later than the last accepted one. The row is
 * locked, so two requests with the same code cannot both pass. `pending` checks the enrolment waiting for its first
 * code instead of an enabled second factor.
 */
export async function acceptTotpCode(
  tx: Queryable,
  key: Buffer,
  userId: number,
  code: string,
  { pending = false } = {},
): Promise<boolean> {
  const [row] = await tx.query<{ secret: string; last_step: string | null }>(
    `SELECT secret, last_step FROM user_totp WHERE user_id = $1 AND (confirmed_at IS NULL) = $2 FOR UPDATE`,
    [userId, pending],
  );
  if (!row) return false;
  const step = totpStep(decryptSecret(key, row.secret), code.replace(/\s/g, ''));
  if (step === null || (row.last_step !== null && step <= Number(row.last_step))) return false;
  await tx.query('UPDATE user_totp SET last_step = $2 WHERE user_id = $1', [userId, step]);
  return true;
}

/** Uses one of the user's recovery codes, once. */
export async function useRecoveryCode(tx: Queryable, userId: number, code: string): Promise<boolean> {
  const used = await tx.query(
    `UPDATE user_recovery_codes SET used_at = now()
      WHERE id = (SELECT id FROM user_recovery_codes WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL
                  LIMIT 1 FOR UPDATE)
     RETURNING 1`,
    [userId, hashRecoveryCode(code)],
  );
  return used.length === 1;
}

/** A TOTP code of the enabled second factor, or else one of its recovery codes. */
export async function acceptSecondFactor(tx: Queryable, key: Buffer, userId: number, code: string): Promise<boolean> {
  if (/^\s*\d{3}\s?\d{3}\s*$/.test(code)) return acceptTotpCode(tx, key, userId, code);
  return useRecoveryCode(tx, userId, code);
}

export async function confirmEnrolment(tx: Queryable, userId: number): Promise<string[]> {
  await tx.query('UPDATE user_totp SET confirmed_at = now() WHERE user_id = $1', [userId]);
  return replaceRecoveryCodes(tx, userId);
}

/** A new set of recovery codes; the earlier ones stop working. Answers the codes, shown once. */
export async function replaceRecoveryCodes(tx: Queryable, userId: number): Promise<string[]> {
  const { codes, hashes } = newRecoveryCodes();
  await tx.query('DELETE FROM user_recovery_codes WHERE user_id = $1', [userId]);
  await tx.query('INSERT INTO user_recovery_codes (user_id, code_hash) SELECT $1, unnest($2::text[])', [
    userId,
    hashes,
  ]);
  return codes;
}

/** Turns the second factor off (the user with a code, or an administrator's reset); answers whether one was on. */
export async function removeSecondFactor(tx: Queryable, userId: number): Promise<boolean> {
  const removed = await tx.query('DELETE FROM user_totp WHERE user_id = $1 RETURNING confirmed_at', [userId]);
  await tx.query('DELETE FROM user_recovery_codes WHERE user_id = $1', [userId]);
  await tx.query('DELETE FROM mfa_tokens WHERE user_id = $1', [userId]);
  return removed.some((row) => (row as { confirmed_at: string | null }).confirmed_at !== null);
}

/**
 * Whether the user of the SQL expression `user` has a second factor: an authenticator app confirmed, or a passkey.
 * One expression, so the sign-in, the enrolment requirement read with every session and the routes judge it alike.
 */
export const hasSecondFactorSql = (user: string) =>
  `(EXISTS (SELECT 1 FROM user_totp f WHERE f.user_id = ${user} AND f.confirmed_at IS NOT NULL)
    OR EXISTS (SELECT 1 FROM user_passkeys p WHERE p.user_id = ${user}))`;

/** The second factors `POST login` offers for the second step of a user with a second factor. */
export async function secondFactorMethods(db: Queryable, userId: number): Promise<Array<SecondStepMethod>> {
  const [row] = await db.query<{ totp: boolean; passkey: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM user_totp WHERE user_id = $1 AND confirmed_at IS NOT NULL) AS totp,
            EXISTS (SELECT 1 FROM user_passkeys WHERE user_id = $1) AS passkey`,
    [userId],
  );
  return [...(row?.totp ? (['totp', 'recovery_code'] as const) : []), ...(row?.passkey ? (['passkey'] as const) : [])];
}

/** Whether the user's role requires a second factor (roles.requires_two_factor) they have not enrolled yet. */
export const mustEnrolSql = (user: string, role: string) =>
  `(${role}.requires_two_factor IS TRUE AND NOT ${hasSecondFactorSql(user)})`;

/** Whether the authenticator app is on (the TOTP routes' own state; a passkey is another factor). */
export async function totpOn(db: Queryable, userId: number): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM user_totp WHERE user_id = $1 AND confirmed_at IS NOT NULL', [userId]);
  return rows.length === 1;
}

/** Any second factor: what `POST login` asks for after the password. */
export async function hasSecondFactor(db: Queryable, userId: number): Promise<boolean> {
  const [row] = await db.query<{ has: boolean }>(`SELECT ${hasSecondFactorSql('$1')} AS has`, [userId]);
  return row?.has === true;
}

/** Whether the user's role requires two-factor sign-in (whatever they have enrolled). */
export async function roleRequiresTwoFactor(db: Queryable, userId: number): Promise<boolean> {
  const [row] = await db.query<{ required: boolean }>(
    'SELECT r.requires_two_factor IS TRUE AS required FROM users u JOIN roles r ON r.id = u.role_id WHERE u.id = $1',
    [userId],
  );
  return row?.required === true;
}

/** The opaque token of a password that matched, for the second step; stored hashed, with its expiry. */
export async function issueMfaToken(db: Queryable, userId: number): Promise<string> {
  const { token, hash } = newOpaqueToken();
  await db.query("DELETE FROM mfa_tokens WHERE expires_at < now() - interval '1 day'");
  await db.query(
    `INSERT INTO mfa_tokens (token_hash, user_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`,
    [hash, userId, MFA_TOKEN_SECONDS],
  );
  return token;
}

/** The user of a live, unused token, locked for the second step; null when unknown, used or expired. */
export async function mfaTokenUser(tx: Queryable, token: string): Promise<number | null> {
  const [row] = await tx.query<{ user_id: number }>(
    `SELECT user_id FROM mfa_tokens WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() FOR UPDATE`,
    [hashToken(token)],
  );
  return row ? Number(row.user_id) : null;
}

export async function spendMfaToken(tx: Queryable, token: string): Promise<void> {
  await tx.query('UPDATE mfa_tokens SET used_at = now() WHERE token_hash = $1', [hashToken(token)]);
}
