import { API_TOKEN_LIMITS, MODULES_NO_TOKEN_REACHES } from '../../../contract/apiTokens.ts';
import type { Queryable } from '../../db/database.ts';
import { tooManyRequests } from '../../http/errors.ts';
import { loadTokenUser, touchApiToken, type GrantsCache, type SessionUser } from './session.ts';
import { hashToken } from './tokens.ts';

const MINUTE_MS = 60_000;

/**
 * One instance's count of each token's requests in the current minute, and when it last wrote a token's last use:
 * the throttle needs no write per request, and `last_used_at` is at most a minute behind.
 */
class TokenUsage {
  private readonly windows = new Map<number, { start: number; count: number }>();
  private readonly touched = new Map<number, number>();

  /** Counts a request; the seconds to wait when the token has used up its minute, else null. */
  count(tokenId: number, now: number): number | null {
    let window = this.windows.get(tokenId);
    if (!window || now - window.start >= MINUTE_MS) {
      if (this.windows.size >= 10_000) this.windows.clear();
      this.windows.set(tokenId, (window = { start: now, count: 0 }));
    }
    window.count += 1;
    return window.count > API_TOKEN_LIMITS.requestsPerMinute ? (window.start + MINUTE_MS - now) / 1000 : null;
  }

  /** Whether this request should write the token's last use. */
  dueTouch(tokenId: number, now: number): boolean {
    const last = this.touched.get(tokenId);
    if (last !== undefined && now - last < MINUTE_MS) return false;
    if (this.touched.size >= 10_000) this.touched.clear();
    this.touched.set(tokenId, now);
    return true;
  }
}

const usages = new WeakMap<object, TokenUsage>();

/**
 * The caller of a request whose bearer is an API token's secret: its creator, narrowed to the token's permissions
 * (`loadTokenUser`); null when the token is not valid now. A token past its requests of the minute gets a 429.
 */
export async function tokenCaller(db: Queryable, cache: GrantsCache, secret: string): Promise<SessionUser | null> {
  const user = await loadTokenUser(db, cache, hashToken(secret), MODULES_NO_TOKEN_REACHES);
  if (!user?.apiToken) return null;
  let usage = usages.get(db);
  if (!usage) usages.set(db, (usage = new TokenUsage()));
  const now = Date.now();
  const wait = usage.count(user.apiToken.id, now);
  if (wait !== null)
    throw tooManyRequests(
      wait,
      `API token "${user.apiToken.name}" made ${API_TOKEN_LIMITS.requestsPerMinute} requests this minute.`,
    );
  if (usage.dueTouch(user.apiToken.id, now)) await touchApiToken(db, user.apiToken.id);
  return user;
}
