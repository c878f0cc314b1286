import { API_URL } from './env.ts';

export interface TokenPair {
  access: string;
  refresh: string;
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what} answered ${status}: ${JSON.stringify(body)}`);
  }
}

/**
 * The API as a Node client sees it: for setting up and checking what the journeys do in the browser. It sends no
 * cookie, so the anti-forgery check (which guards browser requests) does not apply.
 */
export class Api {
  constructor(readonly tokens: TokenPair | null = null) {}

  static async login(email: string, password: string): Promise<Api> {
    const answer = await new Api().request<{ data: TokenPair }>('POST', 'login', { email, password });
    return new Api(answer.data);
  }

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    const response = await this.raw(method, path, body, headers);
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON (CSV export): the text itself.
    }
    if (!response.ok) throw new ApiFailure(response.status, parsed, `${method} ${path}`);
    return parsed as T;
  }

  raw(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(new URL(path, API_URL), {
      method,
      headers: {
        'APP-SOURCE': 'ADMIN_APP',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.tokens ? { authorization: `Bearer ${this.tokens.access}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  }

  get = <T = any>(path: string) => this.request<T>('GET', path);
  post = <T = any>(path: string, body: unknown = {}) => this.request<T>('POST', path, body);
  /** `headers`: `If-Match` for a change of one record; `*` when the journey only sets data up, whatever its version. */
  put = <T = any>(path: string, body: unknown, headers: Record<string, string> = {}) =>
    this.request<T>('PUT', path, body, headers);
  patch = <T = any>(path: string, body: unknown, headers: Record<string, string> = {}) =>
    this.request<T>('PATCH', path, body, headers);
  delete = <T = any>(path: string, headers: Record<string, string> = {}) =>
    this.request<T>('DELETE', path, undefined, headers);
}

/** The claims the console decodes from the access token (SESSION-01). */
export function decodeClaims(token: string): Record<string, any> {
  const middle = token.split('.')[1];
  if (!middle) throw new Error('not a three-part token');
  return JSON.parse(Buffer.from(middle, 'base64url').toString('utf8'));
}

/** A token that decodes like a real one but was never signed by the server (exp and all claims as given). */
export function unsignedToken(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.${Buffer.from('not-the-signature').toString('base64url')}`;
}

/** A short unique suffix, so journeys never collide on unique fields (code, email, name). */
export function unique(prefix = ''): string {
  return `${prefix}${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 1296)
    .toString(36)
    .toUpperCase()
    .padStart(2, '0')}`;
}

/** A unique run of capital letters, for fields that accept letters only (validString). */
export function uniqueLetters(length = 8): string {
  return Array.from({ length }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join('');
}
