/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** API origin and base path, e.g. /api or https://api.example.com/api (docs/console-config.md). */
  readonly VITE_API_BASE_URL?: string;
  /** Versioned path under the base, e.g. v1. */
  readonly VITE_API_VERSION?: string;
  /** localStorage key of the access token; the refresh token uses the same key + _REFRESH. */
  readonly VITE_TOKEN_STORAGE_KEY?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

/** Whether this console has the development mailbox screen (vite.config.ts); false in builds for production. */
declare const __DEV_MAILBOX__: boolean;
