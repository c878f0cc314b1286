import { jwtDecode } from 'jwt-decode';

/** The access token's middle part as the console reads it (SESSION-01). */
export interface SessionClaims {
  /** Expiry, in whole seconds since the epoch. */
  exp: number;
  iat?: number;
  /** The user's id. */
  sub?: string;
  first_name: string;
  last_name: string;
  default_url?: string;
}

/** The token's claims, or null when it is not a decodable three-part token with a numeric exp (SESSION-05). */
export function decodeClaims(token: string): SessionClaims | null {
  if (token.split('.').length !== 3) return null;
  try {
    const claims = jwtDecode<Partial<Omit<SessionClaims, 'sub'>> & { sub?: unknown }>(token);
    if (typeof claims.exp !== 'number' || !Number.isFinite(claims.exp)) return null;
    return {
      exp: claims.exp,
      iat: typeof claims.iat === 'number' ? claims.iat : undefined,
      sub: typeof claims.sub === 'string' || typeof claims.sub === 'number' ? String(claims.sub) : undefined,
      first_name: typeof claims.first_name === 'string' ? claims.first_name : '',
      last_name: typeof claims.last_name === 'string' ? claims.last_name : '',
      default_url: typeof claims.default_url === 'string' ? claims.default_url : undefined,
    };
  } catch {
    return null;
  }
}

/** SESSION-03: past exp, compared in whole seconds (a token is not accepted on or after its exp second). */
export function isExpired(claims: SessionClaims, now = Date.now()): boolean {
  return Math.floor(now / 1000) >= claims.exp;
}
