// A request to one instance of a group, as the tests send it: JSON in, JSON out, a missing answer an error of its own.

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T & { message?: string; errors?: Record<string, string> };
}

export interface RequestOptions {
  /** An access token, sent as `Authorization: Bearer`. */
  token?: string;
  body?: unknown;
  /** The record version a change is made against (`If-Match`). */
  ifMatch?: number;
}

/** An answer that never came: the connection was refused, reset or closed before a response (`cause` says which). */
export class NoAnswer extends Error {
  constructor(
    readonly instance: number,
    readonly code: string,
  ) {
    super(`instance ${instance}: no answer (${code})`);
  }
}

/** Sends one request to the instance `index` listening on `port`. `path` is under /api/v1 unless it starts with a slash. */
export async function requestInstance<T = Record<string, unknown>>(
  index: number,
  port: number,
  method: string,
  path: string,
  { token, body, ifMatch }: RequestOptions = {},
): Promise<Answer<T>> {
  const url = `http://127.0.0.1:${port}${path.startsWith('/') ? path : `/api/v1/${path}`}`;
  const headers: Record<string, string> = {
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(ifMatch === undefined ? {} : { 'if-match': `"${ifMatch}"` }),
  };
  let response: Response;
  try {
    response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    throw new NoAnswer(index, cause?.code ?? String(error));
  }
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Answer<T>['body'] };
}
