import type { BrowserContext } from 'playwright-core';
import { describe, expect } from 'vitest';
import { ADMIN } from '../support/accounts.ts';
import { Api, decodeClaims, unsignedToken } from '../support/api.ts';
import { API_URL, REFRESH_KEY, TOKEN_KEY } from '../support/env.ts';
import { journey, storeTokens, useBrowser } from '../support/journey.ts';
import { errorToast, loginThroughForm, recordApiCalls, storedToken, waitForPath } from '../support/ui.ts';

useBrowser();

const LIST = '/voucher-management/vouchers';

/**
 * Answers every API call in the browser from here: the permissions of a real login, and empty lists. A real
 * server would refuse a token the test forged with 401, which logs out too; answering from here leaves the
 * token's exp as the only reason the console may end the session.
 */
async function answerApiLocally(context: BrowserContext, permissions: unknown): Promise<void> {
  await context.route(`${API_URL}**`, (route) => {
    const path = new URL(route.request().url()).pathname.replace(/^.*\/api\/v1\//, '');
    const body = path === 'user/permission' ? permissions : { data: [], meta: { total: 0, page: 1, page_size: 20 } };
    return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
  });
}

describe('session', () => {
  journey(
    'SESSION-04 a stored token already past exp sends the visitor to /auth/login and is removed',
    async ({ page, context }) => {
      const api = await Api.login(ADMIN.email, ADMIN.password);
      await answerApiLocally(context, await api.get('user/permission'));
      const claims = decodeClaims(api.tokens!.access);
      const now = Math.floor(Date.now() / 1000);
      await storeTokens(context, {
        access: unsignedToken({ ...claims, iat: now - 1000, exp: now - 5 }),
        refresh: null,
      });
      await page.goto(LIST);
      await waitForPath(page, '/auth/login');
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      expect(await storedToken(page)).toBeNull();
    },
  );

  journey(
    'SESSION-04 a token that reaches exp while the console is open logs out and redirects to /auth/login',
    async ({ page, context }) => {
      const api = await Api.login(ADMIN.email, ADMIN.password);
      await answerApiLocally(context, await api.get('user/permission'));
      const claims = decodeClaims(api.tokens!.access);
      const now = Math.floor(Date.now() / 1000);
      // Four seconds to live, and no refresh token that could renew it.
      await storeTokens(context, { access: unsignedToken({ ...claims, iat: now, exp: now + 4 }), refresh: null });
      await page.goto(LIST);
      await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
      expect(new URL(page.url()).pathname).toBe(LIST);
      await waitForPath(page, '/auth/login', 10_000);
      expect(await storedToken(page)).toBeNull();
    },
  );

  journey(
    'SESSION-07 HEADER-06 logout in one tab sends POST logout {} and logs out the other tab',
    async ({ context, page, signIn }) => {
      await signIn(ADMIN);
      const other = await context.newPage();
      const calls = recordApiCalls(page);
      await page.goto(LIST);
      await other.goto('/user-management/users');
      await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
      await other.getByRole('heading', { name: 'Users' }).waitFor();

      await page.getByRole('button', { name: /, account menu$/ }).click();
      await page
        .getByRole('menuitem', { name: 'Logout' })
        .or(page.getByRole('button', { name: 'Logout' }))
        .first()
        .click();
      await waitForPath(page, '/auth/login');
      await waitForPath(other, '/auth/login');
      const logout = calls.find((call) => call.method === 'POST' && call.path === 'logout');
      expect(logout).toBeDefined();
      expect(JSON.parse(logout!.body ?? 'null')).toEqual({});
      const left = await other.evaluate(
        ([access, refresh]) => [localStorage.getItem(access), localStorage.getItem(refresh)],
        [TOKEN_KEY, REFRESH_KEY] as const,
      );
      expect(left).toEqual([null, null]);
    },
  );

  journey('ERR-02 a 401 from the API (the session was revoked elsewhere) logs the user out', async ({ page }) => {
    await page.goto('/auth/login');
    await loginThroughForm(page, ADMIN.email, ADMIN.password);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.goto(LIST);
    await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
    const access = await storedToken(page);
    expect(access).toBeTruthy();
    // The same session ends on the server (as a logout elsewhere or an administrator would end it).
    await new Api({ access: access!, refresh: '' }).post('logout', {});
    const refused = page.waitForResponse(
      (response) => response.url().includes('/api/v1/') && response.status() === 401,
    );
    await page.getByRole('button', { name: 'Refresh' }).click();
    await refused;
    await waitForPath(page, '/auth/login');
    expect(await storedToken(page)).toBeNull();
    await errorToast(page, /./).first().waitFor();
  });
});
