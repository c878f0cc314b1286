export { config } from './config.ts';
export { apiBaseUrl } from './apiBaseUrl.ts';
export { tokenStorageKey } from './tokenStorageKey.ts';
export * from './constants.ts';
