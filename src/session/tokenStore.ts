import { config } from '../config/config.ts';
import { REFRESH_TOKEN_SUFFIX } from '../config/constants.ts';

/** SESSION-02: the access token under the configured key, the refresh token under key + _REFRESH. */
const accessKey = config.tokenStorageKey;
const refreshKey = `${config.tokenStorageKey}${REFRESH_TOKEN_SUFFIX}`;

export const tokenStore = {
  accessKey,
  refreshKey,
  access: (): string | null => localStorage.getItem(accessKey),
  refresh: (): string | null => localStorage.getItem(refreshKey),
  save(access: string, refresh: string): void {
    localStorage.setItem(accessKey, access);
    localStorage.setItem(refreshKey, refresh);
  },
  clear(): void {
    localStorage.removeItem(accessKey);
    localStorage.removeItem(refreshKey);
  },
};
