import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

/** The only algorithm accepted: `alg: none`, RS256 with a public key as HMAC secret and the rest are refused. */
const ALGORITHM = 'HS256';
const ISSUER = 'trade-data-admin';
const AUDIENCE = 'trade-data-admin-console';

/** What the console decodes from the access token (SESSION-01) plus what the server needs to authorise. */
export interface AccessClaims {
  sub: string;
  role: string | null;
  sid: string;
  first_name: string;
  last_name: string;
  default_url: string;
}

/**
 * The HMAC key of a secret, imported once: jose would otherwise import the raw bytes into a WebCrypto key on
 * every sign and verify (measured: 4% of the server's CPU under load on get-by-id).
 */
const hmacKeys = new WeakMap<Uint8Array, Promise<CryptoKey>>();

function hmacKey(secret: Uint8Array): Promise<CryptoKey> {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', new Uint8Array(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    hmacKeys.set(secret, key);
  }
  return key;
}

export async function signAccessToken(
  secret: Uint8Array,
  claims: AccessClaims,
  lifetimeSeconds: number,
): Promise<string> {
  const { sub, ...rest } = claims;
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ...rest })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(sub)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + lifetimeSeconds)
    .sign(await hmacKey(secret));
}

/**
 * Tokens whose signature was checked, with their claims and expiry, per secret. A console sends the same token
 * with every request for up to its lifetime, and the signature check is the costliest step of a request the
 * response cache answers. Keyed by the whole token, so only a byte-identical token skips the check.
 */
const verifiedTokens = new WeakMap<Uint8Array, Map<string, { claims: AccessClaims; exp: number }>>();
/** About 1 MB of tokens; past it the memo starts over rather than grow. */
const MAX_VERIFIED_TOKENS = 2000;

/** The claims of a valid, unexpired token signed with our key and algorithm; null otherwise. */
export async function verifyAccessToken(secret: Uint8Array, token: string): Promise<AccessClaims | null> {
  let verified = verifiedTokens.get(secret);
  if (!verified) verifiedTokens.set(secret, (verified = new Map()));
  const known = verified.get(token);
  if (known) {
    if (known.exp > Date.now() / 1000) return known.claims;
    verified.delete(token);
    return null;
  }
  try {
    const { payload } = await jwtVerify(token, await hmacKey(secret), {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience: AUDIENCE,
    });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.exp !== 'number')
      return null;
    const claims = payload as unknown as AccessClaims;
    if (verified.size >= MAX_VERIFIED_TOKENS) verified.clear();
    verified.set(token, { claims, exp: payload.exp });
    return claims;
  } catch {
    return null;
  }
}

/** An opaque refresh token; only its hash is stored. */
export function newOpaqueToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
