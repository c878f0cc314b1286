/**
 * The request schemas of the API's fixed endpoints (spec section 7 and docs/api.md, "Beyond CRUD"): the server's
 * routes validate with them and the OpenAPI emitter documents them, so each is written once.
 */
import { MAX_INTEGER, type JsonSchema } from './resources.ts';

function body(properties: Record<string, JsonSchema>, required: string[]) {
  return { type: 'object', additionalProperties: false, required, properties } as const;
}

const linkToken = { type: 'string', minLength: 16, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' } as const;
const refreshToken = { type: 'string', minLength: 1, maxLength: 200 } as const;

export const loginBody = body(
  { email: { title: 'Email', type: 'string', minLength: 1, maxLength: 254 }, password: { title: 'Password', type: 'string', minLength: 1, maxLength: 128 } },
  ['email', 'password'],
);
export const refreshBody = body({ refresh: refreshToken }, ['refresh']);
export const logoutBody = body({ refresh: refreshToken }, []);
export const forgetPasswordBody = body({ email: { title: 'Email', type: 'string', format: 'email', maxLength: 254 } }, ['email']);
export const checkLinkBody = body({ token: linkToken }, ['token']);
export const resetPasswordBody = body(
  {
    token: linkToken,
    password: { title: 'Password', type: 'string', format: 'password', maxLength: 128 },
    confirm_password: { title: 'Confirm password', type: 'string', maxLength: 128, compareTo: 'password' },
  },
  ['token', 'password', 'confirm_password'],
);
export const emailVerifyBody = body({ token: linkToken }, ['token']);
/** "Send the link again" on the sign-in screen: the credentials just refused for an unverified address. */
export const resendVerificationBody = loginBody;
/** An administrator's "send the verification link again": nothing to say beyond the user in the path. */
export const userVerificationLinkBody = body({}, []);

export const notificationQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    is_read: { type: 'boolean' },
    _page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1 },
    _page_size: { type: 'integer', minimum: 1, maximum: 100, default: 8 },
  },
} as const;
export const notificationReadBody = body({ id: { type: 'integer', minimum: 1, maximum: MAX_INTEGER } }, ['id']);
export const markAllReadBody = body({}, []);

/** A role's permission set: each module, with the actions it offers (an area offers `view`). */
export function permissionSetSchema(modules: ReadonlyArray<{ key: string; actions: readonly string[] }>): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(modules.map((module) => [module.key, { type: 'array', uniqueItems: true, items: { type: 'string', enum: [...module.actions] } }])),
  };
}

export function rolePermissionsBody(modules: ReadonlyArray<{ key: string; actions: readonly string[] }>): JsonSchema {
  return body({ permissions: permissionSetSchema(modules) }, ['permissions']);
}

/**
 * Not a field of the manifest's ADD_TOP_UP form: no user types it. The console makes one key per top-up dialog and
 * sends it beside the form's data, so a retried or double-clicked top-up credits once.
 */
export const TOP_UP_SERVER_ONLY = {
  idempotency_key: { title: 'Idempotency key', type: 'string', minLength: 8, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' },
};

export const executiveSubscribersQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { _page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 }, _page_size: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
} as const;

/** The signature and expiry of the upload URL `POST uploads` hands out (data-folder storage). */
export const uploadFileQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['expires', 'signature'],
  properties: { expires: { type: 'integer', minimum: 0, maximum: 99_999_999_999 }, signature: { type: 'string', maxLength: 100 } },
} as const;

/** The data columns a trade file's header is checked against, for a trade direction. */
export const uploadColumnsQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['trade_direction'],
  properties: { trade_direction: { type: 'string', enum: ['import', 'export'] } },
} as const;

/** Completing a bucket upload: `confirm_duplicate` imports a file whose bytes were already uploaded for the same country, direction and period. */
export const uploadCompleteBody = {
  type: 'object',
  additionalProperties: false,
  properties: { confirm_duplicate: { type: 'boolean' } },
} as const;

const tradeFilters = {
  country_id: { type: 'integer', minimum: 1, maximum: MAX_INTEGER },
  trade_direction: { type: 'string', enum: ['import', 'export'] },
  period: { type: 'string', format: 'period' },
  q: { type: 'string', maxLength: 200 },
} as const;

export const tradeQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...tradeFilters,
    _page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
    _page_size: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  },
} as const;

export const tradeExportQuery = { type: 'object', additionalProperties: false, properties: tradeFilters } as const;

export const reportSummaryQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { from: { type: 'string', format: 'date' }, to: { type: 'string', format: 'date' } },
} as const;

/** The only names GET banners/images/:name answers: the random names the banner image upload gives (32 hex digits). */
export const BANNER_IMAGE_NAME = /^[0-9a-f]{32}\.(png|jpg|webp)$/;
export const BANNER_IMAGE_MAX_BYTES = 2 * 1024 * 1024;
