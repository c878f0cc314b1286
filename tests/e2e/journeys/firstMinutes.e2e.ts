import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { AREAS } from '../../../src/generated/routes.ts';
import { ADMIN, SEEDED_ACCOUNTS } from '../support/accounts.ts';
import { Api, decodeClaims, unsignedToken } from '../support/api.ts';
import { journey, storeTokens, useBrowser } from '../support/journey.ts';
import { loginThroughForm, pathOf, sidebarLink, storedToken, waitForPath } from '../support/ui.ts';

useBrowser();

type Permissions = { data: Record<string, { actions: Record<string, unknown> }> };

const EXPIRED_NOTICE = 'Your session expired, sign in again.';
const PHONE = { width: 390, height: 800 };

/** Every kind of screen: generic list, detail and form, and each custom screen. */
const SCREENS = [
  '/voucher-management/vouchers',
  '/voucher-management/vouchers/add',
  '/masters/lookups',
  '/masters/lookups/add',
  '/user-management/users/1',
  '/user-management/roles/add',
  '/subscriber-management/subscribers',
  '/subscriber-management/subscribers/1/details',
  '/data-upload-management/uploads',
  '/data-upload-management/uploads/add',
  '/data-upload-management/uploaded-data-report',
  '/data-upload-management/sync-trending-data',
  '/admin-reporting-management/reports',
  '/executive-profile-management/executives',
  '/developers/modules',
  '/profile-management/profile',
  '/profile-management/change-password',
];

const areaTabs = (page: Page) => page.locator('nav.area-tabs');
const scrollsSideways = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth > window.innerWidth);

describe('the first minutes', () => {
  journey(
    'an administrator reaches each resource of an area from its tabs, the current one marked, by pointer and keyboard',
    async ({ page, signIn, audit }) => {
      await signIn(ADMIN);
      for (const [area, tabs] of [
        ['/masters', ['Lookups', 'HS Chapters']],
        ['/user-management', ['Roles']],
        ['/subscription-management', ['Plan Offers', 'Point Consumption Rules']],
        ['/subscriber-management', ['ICICI Subscribers']],
        ['/data-upload-management', ['Uploaded Data Report', 'Sync Trending Data']],
        ['/profile-management', ['Change Password']],
      ] as const) {
        await page.goto(area);
        await areaTabs(page).waitFor();
        for (const label of tabs) {
          const tab = areaTabs(page).getByRole('link', { name: label, exact: true });
          await tab.click();
          await expect.poll(() => tab.getAttribute('aria-current')).toBe('page');
          await page.getByRole('heading', { level: 1 }).waitFor();
          expect(pathOf(page)).toBe(await tab.getAttribute('href'));
        }
      }
      await audit('area tabs, 1280 px');
      // From the keyboard: focus a tab and press Enter.
      await page.goto('/masters/countries');
      const lookups = areaTabs(page).getByRole('link', { name: 'Lookups', exact: true });
      await lookups.focus();
      await page.keyboard.press('Enter');
      await waitForPath(page, '/masters/lookups');
      await page.getByRole('heading', { name: 'Lookups', level: 1 }).waitFor();
    },
  );

  for (const account of SEEDED_ACCOUNTS) {
    journey(
      `the ${account.role} sees as tabs exactly the resources of each area they may view`,
      async ({ page, signIn }) => {
        const tokens = await signIn(account);
        const { data: granted } = await new Api(tokens).get<Permissions>('user/permission');
        for (const area of AREAS.filter((candidate) => candidate.layout === 'admin')) {
          const expected = area.resources
            .filter((resource) => granted[resource.module]?.actions.view !== undefined)
            .map((resource) => resource.path);
          if (expected.length === 0) continue;
          await page.goto(expected[0]!);
          await page.getByRole('heading', { level: 1 }).first().waitFor();
          const shown =
            expected.length < 2
              ? []
              : await areaTabs(page)
                  .getByRole('link')
                  .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
          expect(shown, area.path).toEqual(expected.length < 2 ? [] : expected);
          if (expected.length < 2) expect(await areaTabs(page).count(), area.path).toBe(0);
        }
      },
    );
  }

  journey(
    'an account menu opened as a list loads stays open (nothing takes focus from it)',
    async ({ page, signIn }) => {
      await signIn(ADMIN);
      await page.goto('/voucher-management/vouchers');
      const account = page.getByRole('button', { name: /, account menu$/ });
      await account.click();
      const panel = page.getByRole('region', { name: /, account menu$/ });
      await panel.waitFor();
      await page.getByRole('table').waitFor();
      await page.waitForTimeout(1_000);
      expect(await panel.isVisible()).toBe(true);
      expect(await account.getAttribute('aria-expanded')).toBe('true');
    },
  );

  journey(
    'TOAST-03 a toast stays 5 s from its appearance to its removal (measured in the browser)',
    async ({ page, signIn }) => {
      await signIn(ADMIN);
      await page.goto('/voucher-management/vouchers');
      await page.getByRole('table').waitFor();
      await page.evaluate(() => {
        const times: { shown?: number; removed?: number; timer?: string } = {};
        (window as unknown as { toastTimes: typeof times }).toastTimes = times;
        new MutationObserver(() => {
          const toast = document.querySelector('.Toastify__toast');
          const present = toast !== null;
          if (present && times.shown === undefined) {
            times.shown = performance.now();
            // The toast closes when its progress bar's animation ends: its duration is the rule, whatever the load.
            const bar = toast.querySelector('.Toastify__progress-bar');
            times.timer = bar ? getComputedStyle(bar).animationDuration : 'none';
          }
          if (!present && times.shown !== undefined && times.removed === undefined) times.removed = performance.now();
        }).observe(document.body, { childList: true, subtree: true });
      });
      const toggle = page.getByRole('switch').first();
      const deactivating = (await toggle.getAttribute('aria-checked')) === 'true';
      await toggle.click();
      if (deactivating) await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
      // The pointer away from the top-right corner, so the toast is never hovered.
      await page.mouse.move(10, 790);
      const read = () =>
        page.evaluate(
          () => (window as unknown as { toastTimes: { shown?: number; removed?: number; timer?: string } }).toastTimes,
        );
      await expect.poll(async () => (await read()).removed, { timeout: 30_000 }).toBeDefined();
      const { shown, removed, timer } = await read();
      const stayed = removed! - shown!;
      // Its timer is 5 s, and it stayed at least that long; a busy machine only delays the removal (fade-out, collapse).
      expect(timer).toBe('5s');
      expect(stayed).toBeGreaterThan(5_000);
      console.log(`[toast] shown for ${Math.round(stayed)} ms`);
    },
  );

  journey('after signing in the user returns to the page they asked for, path and query', async ({ page }) => {
    await page.goto('/masters/lookups?q=port&_page=1');
    await waitForPath(page, '/auth/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/masters/lookups?q=port&_page=1');
    expect(await page.getByText(EXPIRED_NOTICE).count()).toBe(0);
    await loginThroughForm(page, ADMIN.email, ADMIN.password);
    await waitForPath(page, '/masters/lookups');
    expect(new URL(page.url()).search).toBe('?q=port&_page=1');
  });

  journey(
    'a return address outside the app, or to an auth screen, is ignored: the user lands on their landing path',
    async ({ page }) => {
      for (const next of ['https://evil.example.com/', '//evil.example.com/', '/auth/reset-password']) {
        await page.goto(`/auth/login?next=${encodeURIComponent(next)}`);
        await loginThroughForm(page, ADMIN.email, ADMIN.password);
        await waitForPath(page, /^\/(?!auth)[\w-]+(\/|$)/);
        expect(new URL(page.url()).host).not.toBe('evil.example.com');
        expect(pathOf(page)).toBe(decodeClaims((await storedToken(page))!).default_url);
        await page.evaluate(() => localStorage.clear());
      }
    },
  );

  journey(
    'an expired session says so on the login screen, and signing in again returns to the page',
    async ({ page, context }) => {
      const api = await Api.login(ADMIN.email, ADMIN.password);
      const claims = decodeClaims(api.tokens!.access);
      const now = Math.floor(Date.now() / 1000);
      await storeTokens(context, {
        access: unsignedToken({ ...claims, iat: now - 1000, exp: now - 5 }),
        refresh: null,
      });
      await page.goto('/masters/hs-chapters');
      await waitForPath(page, '/auth/login');
      await page.getByText(EXPIRED_NOTICE).waitFor();
      await loginThroughForm(page, ADMIN.email, ADMIN.password);
      await waitForPath(page, '/masters/hs-chapters');
    },
  );

  journey(
    'a session the API refuses (401) says it expired; a plain logout says nothing',
    async ({ page, context, signIn }) => {
      const api = await Api.login(ADMIN.email, ADMIN.password);
      const claims = decodeClaims(api.tokens!.access);
      const now = Math.floor(Date.now() / 1000);
      // A token the console believes (its exp is ahead) but the API refuses, and a refresh token it refuses too.
      await storeTokens(context, {
        access: unsignedToken({ ...claims, iat: now, exp: now + 600 }),
        refresh: 'not-a-refresh-token',
      });
      await page.goto('/voucher-management/vouchers');
      await waitForPath(page, '/auth/login');
      await page.getByText(EXPIRED_NOTICE).waitFor();

      await signIn(ADMIN);
      await page.goto('/voucher-management/vouchers');
      await page.getByRole('table').waitFor();
      await page.getByRole('button', { name: /, account menu$/ }).click();
      await page.getByRole('button', { name: 'Logout' }).click();
      await waitForPath(page, '/auth/login');
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      expect(await page.getByText(EXPIRED_NOTICE).count()).toBe(0);
      expect(new URL(page.url()).search).toBe('');
    },
  );

  journey(
    'on a phone the sidebar is a drawer: the menu button opens it, Escape, a tap beside it and a navigation close it',
    async ({ page, signIn, audit }) => {
      await signIn(ADMIN);
      await page.goto('/voucher-management/vouchers');
      await page.getByRole('heading', { name: 'Vouchers', level: 1 }).waitFor();
      const menu = page.getByRole('button', { name: 'Main menu' });
      const drawer = page.getByRole('navigation', { name: 'Main' });
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      expect(await drawer.isVisible()).toBe(false);

      await menu.click();
      await drawer.waitFor();
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.closest('nav')?.getAttribute('aria-label')))
        .toBe('Main');
      await audit('sidebar drawer open, 390 px');
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'hidden' });
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
        .toBe('Main menu');

      await menu.click();
      await drawer.waitFor();
      await page.mouse.click(380, 400);
      await drawer.waitFor({ state: 'hidden' });

      await menu.click();
      await sidebarLink(page, 'Master data').click();
      await waitForPath(page, /^\/masters\//);
      await drawer.waitFor({ state: 'hidden' });
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
    },
    { viewport: PHONE },
  );

  journey(
    "on a phone a list's rows fit the screen as cards, each with its actions menu in view",
    async ({ page, signIn }) => {
      await signIn(ADMIN);
      await page.goto('/subscriber-management/subscribers');
      await page.getByRole('table').waitFor();
      const region = page.locator('.table-region').first();
      expect(
        await region.evaluate((element) => element.scrollWidth <= element.clientWidth),
        'the rows fit the phone',
      ).toBe(true);
      expect(await scrollsSideways(page)).toBe(false);
      const box = (await page
        .getByRole('button', { name: /^Actions for / })
        .first()
        .boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    },
    { viewport: PHONE },
  );

  for (const viewport of [PHONE, { width: 1280, height: 800 }]) {
    journey(
      `no screen scrolls sideways at ${viewport.width} px (generic list, detail and form, and the custom screens)`,
      async ({ page, signIn, audit }) => {
        await signIn(ADMIN);
        const wide: string[] = [];
        for (const path of SCREENS) {
          await page.goto(path);
          await page.getByRole('heading', { level: 1 }).first().waitFor();
          await page.waitForLoadState('networkidle');
          if (await scrollsSideways(page)) wide.push(path);
          await audit(`${path} at ${viewport.width} px`);
        }
        expect(wide).toEqual([]);
      },
      { viewport, timeout: 180_000 },
    );
  }
});
