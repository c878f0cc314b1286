const PRODUCTION_KEY = /^prod.*auth-token$/;

/**
 * The localStorage key of the session token (SESSION-02): the configured one, or a default per build.
 * A production build refuses a key that does not start with "prod" and end with "auth-token", so a
 * staging key can never leak into production.
 */
export function tokenStorageKey(configured: string | undefined, production: boolean): string {
  const key = configured?.trim() || (production ? 'prod-admin-auth-token' : 'dev-admin-auth-token');
  if (production && !PRODUCTION_KEY.test(key)) {
    throw new Error(`VITE_TOKEN_STORAGE_KEY "${key}" must start with "prod" and end with "auth-token" in production.`);
  }
  return key;
}
