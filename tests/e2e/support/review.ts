import { afterAll, beforeAll } from 'vitest';
import { ADMIN } from './accounts.ts';
import { Api } from './api.ts';

/**
 * For the journeys whose subject is not the review before publishing: their imports publish at once, as an
 * administrator may set it (their files are small, or dated in another month, which the review would hold), and the
 * thresholds hold again after them, for the journeys that follow on the same server.
 */
export function publishEveryImport(): void {
  beforeAll(async () => {
    await (await Api.login(ADMIN.email, ADMIN.password)).put('uploads/review-settings', { hold: false });
  });
  afterAll(async () => {
    await (await Api.login(ADMIN.email, ADMIN.password)).put('uploads/review-settings', { hold: true });
  });
}
