import { tokenStorageKey } from '../../../src/config/tokenStorageKey.ts';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the journeys with \`npm run test:e2e\`.`);
  return value;
}

/** The console and the API on one origin, as `npm start` serves them. */
// Not BASE_URL: Vitest sets that one to Vite's base path.
export const BASE_URL = required('E2E_BASE_URL');
export const API_URL = `${BASE_URL}/api/v1/`;
/** The run's handle on the API process (tests/e2e/run.mjs). */
export const CONTROL_URL = required('E2E_CONTROL_URL');
/** The PGlite data folder of this run's API. */
export const DATA_DIR = required('E2E_DATA_DIR');
export const AXE_REPORT = process.env.E2E_AXE_REPORT ?? null;
export const ARTIFACTS = process.env.E2E_ARTIFACTS ?? null;

/** SESSION-02: where the production build keeps the tokens (the same function the console uses). */
export const TOKEN_KEY = tokenStorageKey(process.env.VITE_TOKEN_STORAGE_KEY, true);
export const REFRESH_KEY = `${TOKEN_KEY}_REFRESH`;
