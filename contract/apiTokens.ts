import { MODULE } from './modules.ts';

/**
 * API tokens (docs/api.md, "API tokens"): what the server and the console both hold them to. A token's secret starts
 * with `PREFIX`, so the server tells it from a session's JWT without trying to verify it, and a secret scanner (or a
 * person) recognises one pasted where it should not be.
 */
export const API_TOKEN_PREFIX = 'tda_';

/**
 * Modules no token reaches, whatever it names: the tokens themselves (a token makes and revokes none), webhooks (which
 * send records as their creator's role sees them, not narrowed as a token is) and a person's own account (their
 * profile and password), which stay that person's.
 */
export const MODULES_NO_TOKEN_REACHES: ReadonlySet<string> = new Set([
  MODULE.apiTokens,
  MODULE.webhooks,
  MODULE.userProfile,
  MODULE.changePassword,
]);

export const API_TOKEN_LIMITS = {
  nameLength: 100,
  /** The longest a token may live: a year, so that every token is looked at again at least once a year. */
  maxDays: 366,
  /** Live tokens (neither revoked nor expired) at once, all creators together. */
  liveTokens: 200,
  /** Requests one token may make in a minute on one instance; beyond them a 429 with Retry-After. */
  requestsPerMinute: 600,
} as const;

/** The expiries the console offers, in days from now. */
export const API_TOKEN_EXPIRY_CHOICES = [30, 90, 180, 365] as const;

/** A token's module actions: `{ SUBSCRIBERS: ['view', 'edit'] }`. */
export type TokenPermissions = Record<string, string[]>;

/** A token as `GET api-tokens` lists it: never its secret. */
export interface ApiTokenAnswer {
  id: number;
  name: string;
  /** The secret's first characters, to tell tokens apart: `tda_Xk3f`. */
  prefix: string;
  permissions: TokenPermissions;
  created_by: number;
  created_by_email: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  status: 'active' | 'expired' | 'revoked';
}
