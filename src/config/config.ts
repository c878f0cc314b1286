import { apiBaseUrl } from './apiBaseUrl.ts';
import { tokenStorageKey } from './tokenStorageKey.ts';

/** The console's configuration from Vite env variables (docs/console-config.md). */
export const config = {
  apiBaseUrl: apiBaseUrl(import.meta.env.VITE_API_BASE_URL, import.meta.env.VITE_API_VERSION),
  tokenStorageKey: tokenStorageKey(import.meta.env.VITE_TOKEN_STORAGE_KEY, import.meta.env.PROD),
} as const;
