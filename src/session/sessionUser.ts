import type { SessionClaims } from './claims.ts';

export interface SessionUser {
  first_name: string;
  last_name: string;
  /** HEADER-04: first letters of first_name and last_name, uppercased. */
  initials: string;
}

export function sessionUser(claims: SessionClaims): SessionUser {
  const initial = (name: string) => (name.trim()[0] ?? '').toUpperCase();
  return {
    first_name: claims.first_name,
    last_name: claims.last_name,
    initials: `${initial(claims.first_name)}${initial(claims.last_name)}`,
  };
}
