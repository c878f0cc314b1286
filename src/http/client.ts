import axios, { type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { PERMISSIONS_VERSION_HEADER } from '../../contract/headers.ts';
import { config } from '../config/config.ts';
import {
  APP_SOURCE,
  APP_SOURCE_HEADER,
  GENERIC_ERROR_MESSAGE,
  SUBSCRIBER_PATH,
  XSRF_COOKIE,
  XSRF_HEADER,
} from '../config/constants.ts';
import { requireEnrolment } from '../session/enrolmentStore.ts';
import { endSession } from '../session/sessionStore.ts';
import { tokenStore } from '../session/tokenStore.ts';
import { loader } from '../shell/loader.ts';
import { toastError } from '../shell/toasts.tsx';
import { ApiError, isShownByCaller, type ShownByCaller } from './ApiError.ts';
import { errorCode, errorFields, errorMessage } from './errorMessage.ts';
import { permissionsSignals } from './permissionsSignal.ts';
import { readBlobText } from './readBlobText.ts';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** LOADER-04: false keeps the global loader off for this call. */
    loader?: boolean;
    /** An access token of a session not started yet (enrolling the second factor a role requires), not the stored one. */
    token?: string;
    /** A call outside the API (cloud-storage upload): no Authorization, XSRF or APP-SOURCE header. */
    external?: boolean;
    /** Set when this call added one to the loader count, so exactly one disable follows. */
    loaderCounted?: boolean;
    /** Failure statuses the caller shows where the user is (a 412 of a versioned change, a 409 it asks about), so no "Error" toast repeats them. */
    shownByCaller?: ShownByCaller;
  }
}

const apiRoot = () => new URL(config.apiBaseUrl, window.location.href).href;

/** The path under the API base (`subscribers`), or null for a URL outside the API. */
function apiPath(url = ''): string | null {
  const absolute = new URL(url, apiRoot()).href;
  if (!absolute.startsWith(apiRoot())) return null;
  return absolute
    .slice(apiRoot().length)
    .replace(/[?#].*$/, '')
    .replace(/^\/+|\/+$/g, '');
}

function readCookie(name: string): string | null {
  const entry = document.cookie.split('; ').find((cookie) => cookie.startsWith(`${name}=`));
  return entry ? decodeURIComponent(entry.slice(name.length + 1)) : null;
}

/** HTTP-02..04: Bearer token, XSRF cookie echoed as a header, and the caller type, on API calls only. */
function addApiHeaders(request: InternalAxiosRequestConfig): InternalAxiosRequestConfig {
  const path = request.external ? null : apiPath(request.url);
  if (path === null) return request;
  const token = request.token ?? tokenStore.access();
  if (token) request.headers.set('Authorization', `Bearer ${token}`);
  const xsrf = readCookie(XSRF_COOKIE);
  if (xsrf) request.headers.set(XSRF_HEADER, xsrf);
  const createsSubscriber = request.method?.toLowerCase() === 'post' && path === SUBSCRIBER_PATH;
  request.headers.set(APP_SOURCE_HEADER, createsSubscriber ? APP_SOURCE.ADMIN : APP_SOURCE.ADMIN_APP);
  return request;
}

/** LOADER-02, LOADER-04: every call counts on the loader unless it opts out. */
function countLoader(request: InternalAxiosRequestConfig): InternalAxiosRequestConfig {
  if (request.loader !== false) {
    request.loaderCounted = true;
    loader.enable();
  }
  return request;
}

function releaseLoader(request: InternalAxiosRequestConfig | undefined): void {
  if (request?.loaderCounted) {
    request.loaderCounted = false;
    loader.disable();
  }
}

async function toApiError(error: unknown): Promise<ApiError> {
  if (!axios.isAxiosError(error)) return new ApiError(0, GENERIC_ERROR_MESSAGE);
  const status = error.response?.status ?? 0;
  const data: unknown = error.response?.data;
  const body = data instanceof Blob ? await readBlobText(data).catch(() => null) : data;
  const retryAfter = Number(error.response?.headers?.['retry-after']);
  return new ApiError(
    status,
    errorMessage(status, body, navigator.onLine),
    errorFields(body),
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
    errorCode(body),
  );
}

const FORBIDDEN = 403;
/** The refusal of a session whose role requires a second factor it has not enrolled (docs/api.md, "Access"). */
const ENROLMENT_REQUIRED = 'two_factor_enrolment_required';

/** Tells the permission store the version an API answer named, and whether it was a refusal. */
function reportPermissions(response: AxiosResponse | undefined): void {
  if (!response || response.config.external) return;
  const version: unknown = response.headers[PERMISSIONS_VERSION_HEADER];
  permissionsSignals.report({
    version: typeof version === 'string' ? version : null,
    forbidden: response.status === FORBIDDEN,
  });
}

/**
 * ERR-01..06: every failure shows one "Error" toast; a 401 ends the session (a 403 never does). The exception is a
 * status the call said its screen shows itself (a stale change's 412, a duplicate upload's 409): shown there, once.
 * A 403 `two_factor_enrolment_required` of the stored session shows none either: the console shows the enrolment.
 */
async function onFailure(error: unknown): Promise<never> {
  releaseLoader(axios.isAxiosError(error) ? error.config : undefined);
  if (axios.isCancel(error)) throw error;
  const apiError = await toApiError(error);
  const request = axios.isAxiosError(error) ? error.config : undefined;
  if (apiError.status === FORBIDDEN && apiError.code === ENROLMENT_REQUIRED && !request?.token && !request?.external) {
    requireEnrolment();
    throw apiError;
  }
  if (apiError.status === 401) endSession();
  else if (axios.isAxiosError(error)) reportPermissions(error.response);
  const shownByCaller = axios.isAxiosError(error) && isShownByCaller(error.config?.shownByCaller, apiError.status);
  if (!shownByCaller) toastError(apiError.message);
  throw apiError;
}

/** The one axios instance of the console (HTTP-01): the versioned API base, our headers, loader and errors. */
export const api = axios.create({ baseURL: config.apiBaseUrl, withXSRFToken: false });

api.interceptors.request.use(addApiHeaders);
api.interceptors.request.use(countLoader);
api.interceptors.response.use((response: AxiosResponse) => {
  releaseLoader(response.config);
  reportPermissions(response);
  return response;
}, onFailure);
