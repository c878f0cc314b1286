import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { decodeClaims } from '../support/api.ts';
import { ADMIN } from '../support/accounts.ts';
import { REFRESH_KEY, TOKEN_KEY } from '../support/env.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { errorToast, loginThroughForm, pathOf, recordApiCalls, storedToken, waitForPath } from '../support/ui.ts';

useBrowser();

/** Opens /auth/login with the console's entry script held back until the returned function is called. */
async function openSignInWithCodeHeld(page: Page): Promise<() => void> {
  let release = () => {};
  const codeHeld = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await codeHeld;
    await route.continue();
  });
  await page.goto('/auth/login', { waitUntil: 'commit' });
  return release;
}

describe('login', () => {
  journey(
    'ROUTE-15 SESSION-06 the seeded administrator signs in and lands on the default_url of the token',
    async ({ page, audit }) => {
      await page.goto('/auth/login');
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      await audit('login');
      const answer = page.waitForResponse(
        (response) => response.url().endsWith('/api/v1/login') && response.request().method() === 'POST',
      );
      await loginThroughForm(page, ADMIN.email, ADMIN.password);
      const body = (await (await answer).json()) as { data: { access: string; refresh: string } };
      const landing = decodeClaims(body.data.access).default_url as string;
      expect(landing).toMatch(/^\//);
      await waitForPath(page, landing.replace(/\/$/, '') || '/');
      const stored = await page.evaluate(
        ([access, refresh]) => [localStorage.getItem(access), localStorage.getItem(refresh)],
        [TOKEN_KEY, REFRESH_KEY] as const,
      );
      expect(stored).toEqual([body.data.access, body.data.refresh]);
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      await page.locator('main').first().waitFor();
      await audit('landing');
    },
  );

  journey(
    "the sign-in form works before the console's code has arrived: what was typed and submitted then signs in",
    async ({ page }) => {
      const release = await openSignInWithCodeHeld(page);
      await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
      await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      // Held by the page, not sent as a plain form: the password never goes into the address.
      expect(new URL(page.url()).search).toBe('');
      expect(await page.locator('#sign-in-prerendered form[data-submitted]').count()).toBe(1);
      release();
      await waitForPath(page, '/home');
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      expect(await storedToken(page)).not.toBeNull();

      // Signed in, the sign-in address sends the visitor on, and the page's form does not stay behind.
      await page.goto('/auth/login');
      await waitForPath(page, '/home');
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      expect(await page.locator('#sign-in-prerendered').count()).toBe(0);
    },
  );

  journey(
    "typing started before the console's code arrived goes on in the same field once it has",
    async ({ page }) => {
      const release = await openSignInWithCodeHeld(page);
      await page.getByLabel('Email', { exact: true }).fill('admin@exa');
      release();
      await page.waitForFunction(() => document.getElementById('sign-in-prerendered') === null);
      await page.keyboard.type('mple.com');
      expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe('admin@example.com');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
    },
  );

  journey(
    'ERR-01 ERR-03 a wrong password shows the server message once, in an Error toast, and keeps the email typed',
    async ({ page, audit }) => {
      await page.goto('/auth/login');
      const answer = page.waitForResponse((response) => response.url().endsWith('/api/v1/login'));
      await loginThroughForm(page, ADMIN.email, 'Wrong-password-1!');
      const response = await answer;
      expect(response.status()).toBe(401);
      const { message } = (await response.json()) as { message: string };
      expect(message).toBeTruthy();
      await errorToast(page, message).waitFor();
      // One message per event: the sign-in form does not say it again.
      expect(await page.getByText(message).count()).toBe(1);
      expect(await page.getByRole('region', { name: 'Sign in' }).getByText(message).count()).toBe(0);
      expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(ADMIN.email);
      expect(pathOf(page)).toBe('/auth/login');
      expect(await storedToken(page)).toBeNull();
      await audit('login with a server error');
    },
  );

  journey(
    'FORM-03 submitting the empty login form shows the required message on both fields and calls nothing',
    async ({ page }) => {
      const calls = recordApiCalls(page);
      await page.goto('/auth/login');
      await page.getByLabel('Email', { exact: true }).press('Enter');
      await expect.poll(() => page.getByText('* This field is required').count()).toBe(2);
      expect(calls.filter((call) => call.path === 'login')).toHaveLength(0);
    },
  );

  journey(
    'the first click on "Sign in" submits the form (no error appearing on blur moves the button away)',
    async ({ page }) => {
      await page.goto('/auth/login');
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      // Submitted: the required message under both fields, not only under the e-mail field that lost focus.
      await expect.poll(() => page.getByText('* This field is required').count()).toBe(2);
    },
  );

  journey(
    'FORM-01 FORM-02 a valid value typed and left at once never shows a stale error under its field',
    async ({ page }) => {
      await page.goto('/auth/login');
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      // Record every error text that appears under a field from now on (the empty placeholders show nothing).
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { __errorsSeen: string[] }).__errorsSeen = seen;
        new MutationObserver(() => {
          document.querySelectorAll('.field-error').forEach((element) => {
            if (element.textContent) seen.push(element.textContent);
          });
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
      await page.getByLabel('Password', { exact: true }).focus();
      await page.waitForTimeout(600);
      const seen = await page.evaluate(() => (window as unknown as { __errorsSeen: string[] }).__errorsSeen);
      expect(seen).toEqual([]);
    },
  );
});

describe('guards', () => {
  journey(
    'ROUTE-02 SESSION-09 a logged-in user opening /auth/login goes to the landing path',
    async ({ page, signIn }) => {
      const tokens = await signIn(ADMIN);
      const landing = decodeClaims(tokens.access).default_url as string;
      await page.goto('/auth/login');
      await waitForPath(page, landing);
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
    },
  );

  journey(
    'ROUTE-01 the root path redirects to /auth, which a logged-out visitor sees as the login',
    async ({ page }) => {
      await page.goto('/');
      await waitForPath(page, /^\/auth(\/login)?$/);
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    },
  );

  journey('ROUTE-03 SESSION-09 a logged-out visitor opening a guarded area goes to /auth/login', async ({ page }) => {
    for (const path of [
      '/user-management/users',
      '/subscriber-management/subscribers',
      '/data-upload-management/uploads',
      '/masters',
    ]) {
      await page.goto(path);
      await waitForPath(page, '/auth/login');
    }
  });

  journey(
    'ROUTE-04 a logged-out visitor opening an area without a parent guard sees no data and goes to /auth/login',
    async ({ page }) => {
      const calls = recordApiCalls(page);
      for (const path of [
        '/voucher-management/vouchers',
        '/company-management/list',
        '/banner-management/list',
        '/country-management/list',
      ]) {
        await page.goto(path);
        await waitForPath(page, '/auth/login');
      }
      // Nothing but what the login screen may ask for: no list of any module was requested.
      expect(
        calls.map((call) => call.path).filter((path) => !['login', 'notification', 'user/permission'].includes(path)),
      ).toEqual([]);
    },
  );
});
