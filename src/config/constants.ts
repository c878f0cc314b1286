/**
 * The spec's constants (docs/spec/seed-spec.md section 9 and friends), each in one place with the rule it serves, by
 * its ID in docs/spec/rules.md.
 */

/** The product's name: the brand in the header and the end of every browser tab's title. */
export const PRODUCT_NAME = 'Trade Data Admin';

/** NOTIF-06: notifications poll interval. */
export const NOTIFICATION_POLL_MS = 30_000;
/** NOTIF-05: the unread list query. */
export const NOTIFICATION_QUERY = { is_read: false, _page: 1, _page_size: 8 } as const;

/** TOAST-03: time-out, extended time-out after hover, and fade easing. */
export const TOAST_TIMEOUT_MS = 5_000;
export const TOAST_EXTENDED_TIMEOUT_MS = 1_000;
export const TOAST_EASING_MS = 300;
/** TOAST-02 */
export const TOAST_POSITION = 'top-right';

/** PERM-07: how long a settled permissions request is still shared. */
export const PERMISSIONS_IN_FLIGHT_MS = 100;

/** FORM-02: field errors show this long after the value settles. */
export const FORM_ERROR_DEBOUNCE_MS = 200;

/** A related-record picker asks the server for matches this long after the typing stops (no spec rule). */
export const RELATION_SEARCH_DEBOUNCE_MS = 250;

/** The add-subscription dialog asks the server for the price this long after the plan or voucher stops changing (no spec rule). */
export const PRICE_QUOTE_DEBOUNCE_MS = 300;

/** CONST-01: dropdown open animation. */
export const DROPDOWN_ANIMATION_MS = 220;

/** LOADER-01: loader overlay fade-in, in seconds. */
export const LOADER_FADE_IN_S = 0.5;

/** SIDEBAR-05: sessionStorage key of the sidebar's open state. */
export const SIDEBAR_STORAGE_KEY = 'leftSideBar.IsOpen';

/** ERRPAGE-03: top padding of the 403 and 404 pages. */
export const ERROR_PAGE_TOP_PADDING_PX = 75;

/** SESSION-02: the refresh token lives under the access token's key plus this suffix. */
export const REFRESH_TOKEN_SUFFIX = '_REFRESH';

/** Beyond the spec: refresh the access token this many seconds before it expires. */
export const TOKEN_REFRESH_LEAD_S = 60;

/** HTTP-04: the caller-type header and its values. */
export const APP_SOURCE_HEADER = 'APP-SOURCE';
export const APP_SOURCE = { ADMIN_APP: 'ADMIN_APP', CUSTOMER: 'CUSTOMER', ADMIN: 'ADMIN' } as const;
/** HTTP-04: a POST to this API path (create subscriber) is sent as ADMIN. */
export const SUBSCRIBER_PATH = 'subscribers';

/** HTTP-03: the anti-forgery cookie and header (the standard default names). */
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';

/** ERR-01 */
export const ERROR_TOAST_TITLE = 'Error';
/** ERR-04 */
export const NO_INTERNET_MESSAGE = 'No Internet Connection.';
/** ERR-05 */
export const GENERIC_ERROR_MESSAGE = 'Some error occurred. Please contact Admin.';

/** ROUTE-03, SESSION-09: where logged-out visitors go. */
export const LOGIN_PATH = '/auth/login';

/** Beyond the spec: the development mailbox screen, in development builds only (vite.config.ts, docs/api.md "E-mail"). */
export const DEV_MAILBOX_PATH = '/dev/mailbox';
/** Beyond the spec: how often the open development mailbox looks for new messages. */
export const DEV_MAILBOX_REFRESH_MS = 3_000;
/** Beyond the spec: "Send the link again" rests this long after a link was sent, as the server does (docs/api.md). */
export const VERIFY_LINK_RESEND_WAIT_S = 60;
