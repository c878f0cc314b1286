import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import { publicOrigin } from './emailLinks.ts';
import { PRODUCT_NAME } from './linkMessages.ts';

/** How long a challenge stays usable: the browser's own prompt times out after about as long. */
export const CHALLENGE_SECONDS = 5 * 60;

type Purpose = 'register' | 'sign_in' | 'second_factor';

/** A passkey as the profile lists it. */
export type PasskeyAnswer = {
  id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
};

/** The relying party: its id is PUBLIC_URL's host name, its origin PUBLIC_URL's origin (docs/server-config.md). */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

export function relyingParty(app: FastifyInstance): RelyingParty {
  const origin = new URL(publicOrigin(app)).origin;
  return { id: new URL(origin).hostname, origin, name: PRODUCT_NAME };
}

async function keepChallenge(db: Queryable, challenge: string, purpose: Purpose, userId: number | null) {
  await db.query("DELETE FROM webauthn_challenges WHERE expires_at < now() - interval '1 day'");
  await db.query(
    `INSERT INTO webauthn_challenges (challenge, purpose, user_id, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [challenge, purpose, userId, CHALLENGE_SECONDS],
  );
}

/**
 * Spends the challenge a response signed, if the server gave it for this purpose (and user), unused and in time.
 * Spent before the signature is checked, so a refused response cannot be tried again either.
 */
async function spendChallenge(
  db: Queryable,
  clientDataJSON: string,
  purpose: Purpose,
  userId: number | null,
): Promise<string | null> {
  let challenge: unknown;
  try {
    challenge = (JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown })
      .challenge;
  } catch {
    return null;
  }
  if (typeof challenge !== 'string') return null;
  const spent = await db.query(
    `UPDATE webauthn_challenges SET used_at = now()
      WHERE challenge = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
        AND user_id IS NOT DISTINCT FROM $3::bigint
     RETURNING 1`,
    [challenge, purpose, userId],
  );
  return spent.length === 1 ? challenge : null;
}

/**
 * What a browser's response is checked against, beyond its signature: the challenge it signed and this relying party.
 * The options ask for user verification as preferred, so it is not required.
 */
function expectedBy(rp: RelyingParty, challenge: string) {
  return {
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: false,
  };
}

/** Options for `navigator.credentials.create`: a discoverable credential, its challenge kept for this user. */
export async function registrationOptions(
  db: Queryable,
  rp: RelyingParty,
  user: { id: number; email: string; name: string },
) {
  const existing = await db.query<{ credential_id: string }>(
    'SELECT credential_id FROM user_passkeys WHERE user_id = $1',
    [user.id],
  );
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.name || user.email,
    userID: new TextEncoder().encode(String(user.id)),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.credential_id })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await keepChallenge(db, options.challenge, 'register', user.id);
  return options;
}

/** Checks a new credential against its challenge, origin and relying party and keeps it; null when refused. */
export async function registerPasskey(
  tx: Queryable,
  rp: RelyingParty,
  userId: number,
  name: string,
  response: RegistrationResponseJSON,
): Promise<PasskeyAnswer | null> {
  const challenge = await spendChallenge(tx, response.response.clientDataJSON, 'register', userId);
  if (!challenge) return null;
  const verified = await verifyRegistrationResponse({
    response,
    ...expectedBy(rp, challenge),
  }).catch(() => null);
  if (!verified?.verified) return null;
  const { credential } = verified.registrationInfo;
  const [saved] = await tx.query<PasskeyAnswer>(
    `INSERT INTO user_passkeys (user_id, credential_id, public_key, counter, transports, name)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (credential_id) DO NOTHING
     RETURNING id, name, created_at, last_used_at`,
    [
      userId,
      credential.id,
      Buffer.from(credential.publicKey).toString('base64url'),
      credential.counter,
      credential.transports ?? [],
      name.trim(),
    ],
  );
  return saved ? toAnswer(saved) : null;
}

/**
 * Options for `navigator.credentials.get`: with no user (a passkey alone: any discoverable credential of this site),
 * or the user's own passkeys (the second step after the password).
 */
export async function authenticationOptions(db: Queryable, rp: RelyingParty, userId: number | null) {
  const allowed =
    userId === null
      ? []
      : await db.query<{ credential_id: string; transports: string[] }>(
          'SELECT credential_id, transports FROM user_passkeys WHERE user_id = $1',
          [userId],
        );
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'preferred',
    allowCredentials: allowed.map((row) => ({ id: row.credential_id, transports: row.transports })),
  });
  await keepChallenge(db, options.challenge, userId === null ? 'sign_in' : 'second_factor', userId);
  return options;
}

/**
 * Checks an assertion: the challenge (once), origin, relying party, signature, and a counter that moved on from the
 * last one kept (a clone's older counter is refused). Answers the passkey's user, or null when refused. With `userId`
 * (the second step), only that user's passkeys count.
 */
export async function acceptPasskey(
  tx: Queryable,
  rp: RelyingParty,
  response: AuthenticationResponseJSON,
  userId: number | null,
): Promise<number | null> {
  const challenge = await spendChallenge(
    tx,
    response.response.clientDataJSON,
    userId === null ? 'sign_in' : 'second_factor',
    userId,
  );
  if (!challenge) return null;
  const [row] = await tx.query<{ id: number; user_id: number; public_key: string; counter: string }>(
    `SELECT id, user_id, public_key, counter FROM user_passkeys
      WHERE credential_id = $1 AND ($2::bigint IS NULL OR user_id = $2) FOR UPDATE`,
    [response.id, userId],
  );
  if (!row) return null;
  const verified = await verifyAuthenticationResponse({
    response,
    ...expectedBy(rp, challenge),
    credential: { id: response.id, publicKey: Buffer.from(row.public_key, 'base64url'), counter: Number(row.counter) },
  }).catch(() => null);
  if (!verified?.verified) return null;
  await tx.query('UPDATE user_passkeys SET counter = $2, last_used_at = now() WHERE id = $1', [
    row.id,
    verified.authenticationInfo.newCounter,
  ]);
  return Number(row.user_id);
}

export async function listPasskeys(db: Queryable, userId: number): Promise<PasskeyAnswer[]> {
  const rows = await db.query<PasskeyAnswer>(
    'SELECT id, name, created_at, last_used_at FROM user_passkeys WHERE user_id = $1 ORDER BY created_at, id',
    [userId],
  );
  return rows.map(toAnswer);
}

export async function renamePasskey(db: Queryable, userId: number, id: number, name: string) {
  const [row] = await db.query<PasskeyAnswer>(
    'UPDATE user_passkeys SET name = $3 WHERE id = $1 AND user_id = $2 RETURNING id, name, created_at, last_used_at',
    [id, userId, name.trim()],
  );
  return row ? toAnswer(row) : null;
}

/** Removes one of the user's passkeys; its name, or null when the user has no such passkey. */
export async function removePasskey(db: Queryable, userId: number, id: number): Promise<string | null> {
  const [row] = await db.query<{ name: string }>(
    'DELETE FROM user_passkeys WHERE id = $1 AND user_id = $2 RETURNING name',
    [id, userId],
  );
  return row?.name ?? null;
}

/**
 * Removes every passkey of the user, and the challenges still open for them (an administrator's reset); answers their
 * names, oldest first.
 */
export async function removeAllPasskeys(tx: Queryable, userId: number): Promise<string[]> {
  const removed = await tx.query<{ name: string; created_at: string; id: number }>(
    'DELETE FROM user_passkeys WHERE user_id = $1 RETURNING name, created_at, id',
    [userId],
  );
  await tx.query('DELETE FROM webauthn_challenges WHERE user_id = $1', [userId]);
  return removed
    .sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime() || Number(a.id) - Number(b.id))
    .map((row) => row.name);
}

function toAnswer(row: PasskeyAnswer): PasskeyAnswer {
  const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());
  return { id: Number(row.id), name: row.name, created_at: iso(row.created_at)!, last_used_at: iso(row.last_used_at) };
}
