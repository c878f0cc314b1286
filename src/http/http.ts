import type { AxiosProgressEvent, AxiosResponse } from 'axios';
import type * as ClientModule from './client.ts';
import { whenIdle } from '../shell/whenIdle.ts';
import { ApiError, isShownByCaller, type ShownByCaller } from './ApiError.ts';
import { errorMessage } from './errorMessage.ts';
import { showPlainAlert } from '../shell/plainAlert.ts';

export type QueryParams = Record<string, string | number | boolean | null | undefined | readonly (string | number)[]>;

export interface RequestOptions {
  params?: QueryParams;
  /** LOADER-04: false keeps the global loader overlay off (GETs only by convention: polls, lookups). */
  loader?: boolean;
  signal?: AbortSignal;
  /**
   * Failure statuses the caller shows the user itself, e.g. a 409 it turns into a question: no "Error" toast for
   * them, so the user hears of one event once.
   */
  shownByCaller?: ShownByCaller;
  /** The access token to send instead of the stored one: a session the sign-in screen has not started yet. */
  token?: string;
}

/** A change of one record, made only at the version the caller read (docs/api.md, "Record versions"). */
export interface ChangeOptions {
  /**
   * The record's `version` as read: sent as `If-Match`. A 412 (someone changed it since) then shows no "Error"
   * toast: the caller explains it where the user is, and offers the latest version.
   */
  ifMatch: number;
  /** Other failure statuses the caller shows where the user is (a restore's 409 naming the field). */
  shownByCaller?: readonly number[];
}

/** The `If-Match` value for a record version: its ETag, `"3"`. */
function etagOf(version: number): string {
  return `"${version}"`;
}

const PRECONDITION_FAILED = 412;

const versioned = ({ ifMatch, shownByCaller = [] }: ChangeOptions) => ({
  headers: { 'If-Match': etagOf(ifMatch) },
  shownByCaller: [PRECONDITION_FAILED, ...shownByCaller],
});

export interface UploadOptions extends Pick<RequestOptions, 'shownByCaller'> {
  /** Fraction sent so far, 0..1. */
  onUploadProgress?: (fraction: number) => void;
}

export interface ProgressOptions extends Pick<RequestOptions, 'params' | 'shownByCaller'> {
  /** Called with each progress line of the answer: how many of how many are done. */
  onProgress?: (done: number, total: number) => void;
  /** A file to send as multipart/form-data instead of JSON, with the fraction of it sent so far. */
  onUploadProgress?: (fraction: number) => void;
}

/** The last line of a long run's answer when it succeeded. */
export interface ProgressResult<T> {
  data: T;
  message: string;
}

export interface DownloadOptions {
  /** Fraction received so far, 0..1, when the server sends a length. */
  onDownloadProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

type Client = typeof ClientModule;

let client: Promise<Client> | undefined;

/** The toast of a call that got no answer; its code is loaded with the client, before any call can fail so. */
const textToast = () => import('../shell/textToast.tsx');

/** axios and the interceptors load with the first call, not with the login screen's first paint. */
function api(): Promise<Client['api']> {
  client ??= import('./client.ts').catch((cause: unknown) => {
    // The chunk did not arrive (offline, server gone): forget the failure so that the next call loads it
    // again, and fail as a call that got no answer fails (ERR-04, ERR-05).
    client = undefined;
    const error = new ApiError(0, errorMessage(0, null, navigator.onLine));
    void textToast().then(
      (toasts) => toasts.toastErrorText(error.message),
      () => showPlainAlert(error.message),
    );
    throw Object.assign(error, { cause });
  });
  return client.then((module) => module.api);
}

/**
 * Loads the client, and the toast that says a call got no answer, once the first screen is idle, so that a call
 * made after the network drops (or the server stops) still has its code and can say so.
 */
export function preloadHttpClient(): void {
  whenIdle(() => {
    void textToast().catch(() => undefined);
    if (!client) {
      const loading = import('./client.ts');
      client = loading;
      loading.catch(() => {
        if (client === loading) client = undefined;
      });
    }
  });
}

async function body<T>(response: Promise<AxiosResponse<T>>): Promise<T> {
  return (await response).data;
}

const fraction = (report?: (value: number) => void) =>
  report && ((event: AxiosProgressEvent) => report(event.total ? event.loaded / event.total : (event.progress ?? 0)));

type ProgressLine = {
  progress?: { done: number; total: number };
  error?: { status: number; message: string; errors?: Record<string, string> };
};

/** The complete lines of a partly received NDJSON answer after the first `from`, and how many there are now. */
function newLines(text: string, from: number): { lines: ProgressLine[]; count: number } {
  const complete = text.split('\n').slice(0, -1);
  return { lines: complete.slice(from).map((line) => JSON.parse(line) as ProgressLine), count: complete.length };
}

/**
 * A long run's answer (docs/api.md, "Progress of long runs"): progress lines as they arrive, then its result; a run
 * that failed once under way rejects with an `ApiError` after its toast, as any failed call does.
 */
async function postWithProgress<T>(
  path: string,
  data: unknown,
  options: ProgressOptions = {},
): Promise<ProgressResult<T>> {
  let seen = 0;
  const text = await body(
    (await api()).post<string>(path, data, {
      params: options.params,
      shownByCaller: options.shownByCaller,
      loader: false,
      responseType: 'text',
      transformResponse: (raw: string) => raw,
      onUploadProgress: fraction(options.onUploadProgress),
      onDownloadProgress: (event) => {
        const partial = (event.event?.target as XMLHttpRequest | undefined)?.responseText;
        if (typeof partial !== 'string') return;
        const { lines, count } = newLines(partial, seen);
        seen = count;
        for (const line of lines) if (line.progress) options.onProgress?.(line.progress.done, line.progress.total);
      },
    }),
  );
  const last = JSON.parse(text.trim().split('\n').at(-1) ?? '{}') as ProgressLine & ProgressResult<T>;
  if (last.error) {
    const error = new ApiError(last.error.status, last.error.message, last.error.errors ?? {});
    if (!isShownByCaller(options.shownByCaller, error.status))
      void textToast().then((toasts) => toasts.toastErrorText(error.message));
    throw error;
  }
  return last;
}

/**
 * The console's HTTP wrapper (HTTP-05). Paths are relative to the versioned API base (`vouchers`, not
 * `/api/v1/vouchers`). Each method resolves to the response body; a failure rejects with an `ApiError`
 * after the "Error" toast was shown.
 */
export const http = {
  get: async <T>(path: string, options: RequestOptions = {}) => body((await api()).get<T>(path, options)),
  post: async <T>(path: string, data?: unknown, options: RequestOptions = {}) =>
    body((await api()).post<T>(path, data, options)),
  put: async <T>(path: string, data?: unknown, options: RequestOptions = {}) =>
    body((await api()).put<T>(path, data, options)),
  patch: async <T>(path: string, data?: unknown, options: RequestOptions = {}) =>
    body((await api()).patch<T>(path, data, options)),
  delete: async <T>(path: string, options: Pick<RequestOptions, 'params' | 'loader'> = {}) =>
    body((await api()).delete<T>(path, options)),
  /** POST, PUT, PATCH or DELETE of one record at the version the caller read. */
  postRecord: async <T>(path: string, data: unknown, options: ChangeOptions) =>
    body((await api()).post<T>(path, data, versioned(options))),
  putRecord: async <T>(path: string, data: unknown, options: ChangeOptions) =>
    body((await api()).put<T>(path, data, versioned(options))),
  patchRecord: async <T>(path: string, data: unknown, options: ChangeOptions) =>
    body((await api()).patch<T>(path, data, versioned(options))),
  deleteRecord: async <T>(path: string, options: ChangeOptions) =>
    body((await api()).delete<T>(path, versioned(options))),
  deleteWithBody: async <T>(path: string, data: unknown) => body((await api()).delete<T>(path, { data })),
  /** A form-encoded POST (application/x-www-form-urlencoded). */
  postForm: async <T>(path: string, fields: Record<string, string | number | boolean>) =>
    body(
      (await api()).post<T>(
        path,
        new URLSearchParams(Object.entries(fields).map(([name, value]) => [name, String(value)])),
      ),
    ),
  /** A multipart POST to an absolute URL outside the API (cloud storage): none of the API's headers go there. */
  postAbsolute: async <T>(url: string, formData: FormData, options: UploadOptions = {}) =>
    body(
      (await api()).post<T>(url, formData, {
        external: true,
        loader: false,
        shownByCaller: options.shownByCaller,
        onUploadProgress: fraction(options.onUploadProgress),
      }),
    ),
  postWithProgress,
  /** A file from the API (e.g. a CSV export), as a Blob. */
  download: async (path: string, params: QueryParams = {}, options: DownloadOptions = {}) =>
    body(
      (await api()).get<Blob>(path, {
        params,
        responseType: 'blob',
        signal: options.signal,
        onDownloadProgress: fraction(options.onDownloadProgress),
      }),
    ),
};
