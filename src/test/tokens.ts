import type { SessionClaims } from '../session/claims.ts';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A three-part token with these claims (unsigned: the console only decodes). */
export function makeToken(claims: Partial<SessionClaims> & Record<string, unknown> = {}): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    sub: 1,
    iat: now,
    exp: now + 3600,
    first_name: 'Asha',
    last_name: 'verma',
    default_url: '/voucher-management/vouchers',
    ...claims,
  };
  return `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(payload)}.signature`;
}
