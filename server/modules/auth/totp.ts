import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { PRODUCT_NAME } from './linkMessages.ts';
import { hashToken } from './tokens.ts';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** A code of the step before or after the current one is accepted too (clocks drift, people type slowly). */
const WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

function totpOf(base32: string, label = ''): TOTP {
  return new TOTP({
    issuer: PRODUCT_NAME,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(base32),
  });
}

/** A new secret (160 bits, as RFC 4226 recommends), its otpauth:// URI and that URI as a QR code (PNG data URL). */
export async function newTotpSecret(email: string): Promise<{ secret: string; uri: string; qr: string }> {
  const secret = new Secret({ size: 20 }).base32;
  const uri = totpOf(secret, email).toString();
  return { secret, uri, qr: await QRCode.toDataURL(uri, { margin: 1, width: 220 }) };
}

/** The time step a code belongs to (within the window), or null when it is no code of this secret now. */
export function totpStep(base32: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(base32).validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}

/** The code of a secret at a time: what an authenticator app shows (tests compute codes with it). */
export function totpCode(base32: string, now = Date.now()): string {
  return totpOf(base32).generate({ timestamp: now });
}

/**
 * The key that encrypts TOTP secrets at rest: derived from the JWT secret (HKDF-SHA256, its own label), so a copy of
 * the database alone does not give the secrets, and no second secret has to be configured and kept.
 */
export function totpKey(jwtSecret: Uint8Array): Buffer {
  return Buffer.from(hkdfSync('sha256', jwtSecret, Buffer.alloc(0), 'totp-secret-encryption', 32));
}

/** `v1.<iv>.<tag>.<ciphertext>`, base64url; AES-256-GCM. */
export function encryptSecret(key: Buffer, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

export function decryptSecret(key: Buffer, stored: string): string {
  const [version, iv, tag, body] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unreadable TOTP secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** Ten codes of 50 bits each, `xxxxx-xxxxx` (lowercase base32 without look-alikes), with the hashes to store. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => alphabet[randomInt(alphabet.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
  return { codes, hashes: codes.map(hashRecoveryCode) };
}

/** Typed codes are compared without case, spaces or dashes. */
export function hashRecoveryCode(code: string): string {
  return hashToken(code.toLowerCase().replace(/[\s-]/g, ''));
}
