import { describe, expect } from 'vitest';
import { ADMIN, SALES } from '../support/accounts.ts';
import { Api, unique, uniqueLetters } from '../support/api.ts';
import { TOKEN_KEY } from '../support/env.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { verifyAddress } from '../support/mail.ts';
import { loginThroughForm, recordApiCalls, waitForPath } from '../support/ui.ts';

useBrowser();

/** The area chunk files the browser fetched (`/assets/<area>-<hash>.js`). */
function areaChunks(requests: string[], area: string): string[] {
  return requests.filter((url) => new RegExp(`/assets/${area}-[\\w-]+\\.js$`).test(url));
}

describe('shell', () => {
  journey(
    'HEADER-03 HEADER-04 the account dropdown shows the name and the uppercased initials; neither dropdown shows logged out',
    async ({ page, signIn }) => {
      await page.goto('/auth/login');
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      expect(await page.getByRole('button', { name: /, account menu$/ }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Notifications/ }).count()).toBe(0);
      await signIn(ADMIN);
      await page.goto('/voucher-management/vouchers');
      await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
      const account = page.getByRole('button', { name: 'AA Asha Admin, account menu' });
      await account.click();
      const panel = page.getByRole('region', { name: 'AA Asha Admin, account menu' });
      await panel.waitFor();
      expect(await panel.locator('.avatar').first().textContent()).toBe('AA');
      await panel.getByText('Asha Admin', { exact: true }).waitFor();
      await page.getByRole('button', { name: /^Notifications/ }).waitFor();
    },
  );

  journey(
    'HEADER-05 the Profile entry shows with USER_PROFILE view and leads to /profile-management/profile, and not without it',
    async ({ page, signIn, newContext }) => {
      await signIn(ADMIN);
      await page.goto('/voucher-management/vouchers');
      await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
      await page.getByRole('button', { name: /, account menu$/ }).click();
      await page
        .getByRole('region', { name: /, account menu$/ })
        .getByRole('link', { name: 'Profile', exact: true })
        .click();
      await waitForPath(page, '/profile-management/profile');

      // A role with vouchers only: no Profile entry.
      const admin = await Api.login(ADMIN.email, ADMIN.password);
      const { data: role } = await admin.post<{ data: { id: number } }>('roles', {
        name: `No Profile ${uniqueLetters(6)}`,
      });
      await admin.put(`roles/${role.id}/permissions`, { permissions: { VOUCHER: ['view'] } }, { 'if-match': '*' });
      const email = `${unique('noprofile').toLowerCase()}@example.com`;
      await admin.post('users', {
        first_name: 'Nora',
        last_name: 'Plain',
        email,
        mobile: '9876523456',
        role_id: role.id,
        password: 'Plain@13579',
        confirm_password: 'Plain@13579',
      });
      await verifyAddress(email);
      const context = await newContext();
      await signIn({ email, password: 'Plain@13579' }, context);
      const other = await context.newPage();
      await other.goto('/voucher-management/vouchers');
      await other.getByRole('heading', { name: 'Vouchers' }).waitFor();
      await other.getByRole('button', { name: 'NP Nora Plain, account menu' }).click();
      const panel = other.getByRole('region', { name: 'NP Nora Plain, account menu' });
      await panel.getByRole('button', { name: 'Logout' }).waitFor();
      expect(await panel.getByRole('link', { name: 'Profile', exact: true }).count()).toBe(0);
    },
  );

  journey(
    'ROUTE-06 ROUTE-08 an area loads its own chunk on first visit; flagged areas preload once the first screen, the sign-in screen too, has rendered',
    async ({ page }) => {
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      await page.addInitScript(() => {
        new MutationObserver((_changes, observer) => {
          if (!document.querySelector('button[type="submit"]')) return;
          (window as { signInShownAt?: number }).signInShownAt = performance.now();
          observer.disconnect();
        }).observe(document, { subtree: true, childList: true });
      });
      await page.goto('/auth/login');
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      // subscriber-management is flagged for preloading in the manifest; voucher-management is not.
      await expect.poll(() => areaChunks(requests, 'subscriber-management').length, { timeout: 5_000 }).toBe(1);
      // The sign-in screen was shown before any area's code was asked for.
      const preloadedAt = () =>
        page.evaluate(
          () =>
            performance
              .getEntriesByType('resource')
              .find((entry) => /\/assets\/subscriber-management-[\w-]+\.js$/.test(entry.name))?.startTime ?? -1,
        );
      await expect.poll(preloadedAt, { timeout: 5_000 }).toBeGreaterThan(0);
      const shownAt = await page.evaluate(() => (window as { signInShownAt?: number }).signInShownAt ?? Infinity);
      expect(await preloadedAt()).toBeGreaterThan(shownAt);

      await loginThroughForm(page, ADMIN.email, ADMIN.password);
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(areaChunks(requests, 'subscriber-management')).toHaveLength(1);
      expect(areaChunks(requests, 'voucher-management')).toEqual([]);

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Voucher codes' }).click();
      await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
      expect(areaChunks(requests, 'voucher-management')).toHaveLength(1);
    },
  );

  journey(
    'ERR-07 the production build silences console log, info and warn; console.error still reports',
    async ({ page }) => {
      const messages: string[] = [];
      page.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
      await page.goto('/auth/login');
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      await page.evaluate(() => {
        console.log('a log line');
        console.info('an info line');
        console.warn('a warning');
        console.error('an error');
      });
      await expect.poll(() => messages.filter((text) => text.startsWith('error: an error')).length).toBe(1);
      expect(messages.filter((text) => /a log line|an info line|a warning/.test(text))).toEqual([]);
    },
  );

  journey(
    'HTTP-02 HTTP-03 API calls carry the stored token as Bearer, and state changes echo the XSRF-TOKEN cookie',
    async ({ page, context, signIn }) => {
      await signIn(SALES);
      const calls = recordApiCalls(page);
      await page.goto('/subscriber-management/subscribers');
      await page.getByRole('table').waitFor();
      await page.getByRole('button', { name: /^Notifications/ }).click();
      await page.getByRole('button', { name: 'Mark All Read' }).click();
      await expect.poll(() => calls.filter((call) => call.method === 'POST').length).toBeGreaterThan(0);
      const token = await page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY);
      expect(calls.length).toBeGreaterThan(2);
      expect(calls.filter((call) => call.headers.authorization !== `Bearer ${token}`).map((call) => call.path)).toEqual(
        [],
      );
      const cookie = (await context.cookies()).find((candidate) => candidate.name === 'XSRF-TOKEN');
      expect(cookie?.value).toBeTruthy();
      for (const call of calls.filter((candidate) => candidate.method !== 'GET'))
        expect(call.headers['x-xsrf-token'], call.path).toBe(cookie!.value);
    },
  );
});
