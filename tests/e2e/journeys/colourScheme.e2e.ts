import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { ADMIN, SALES } from '../support/accounts.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { loginThroughForm, waitForPath } from '../support/ui.ts';

useBrowser();

const WIDTHS = [
  ['1280 px', { width: 1280, height: 800 }],
  ['390 px', { width: 390, height: 844 }],
] as const;

/** The page's own background: dark or light by its lightness. */
async function shownScheme(page: Page): Promise<'dark' | 'light'> {
  const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  const [red = 255, green = 255, blue = 255] = (background.match(/\d+/g) ?? []).map(Number);
  return (red + green + blue) / 3 < 128 ? 'dark' : 'light';
}

async function chooseInAccountMenu(page: Page, scheme: 'System' | 'Light' | 'Dark'): Promise<void> {
  await page.getByRole('button', { name: /account menu/ }).click();
  await page.getByRole('group', { name: 'Colours' }).getByRole('button', { name: scheme }).click();
  await page.keyboard.press('Escape');
}

/** The screens a day's work passes through, each audited by axe (contrast included) at both widths. */
const SCREENS: Array<[string, string, (page: Page) => Promise<void>]> = [
  ['home', '/home', (page) => page.locator('main article.home-card').first().waitFor()],
  [
    'subscribers list',
    '/subscriber-management/subscribers',
    (page) => page.locator('main table tbody tr').first().waitFor(),
  ],
  [
    'voucher form with errors',
    '/voucher-management/vouchers/add',
    async (page) => {
      await page
        .getByRole('button', { name: /^(Save|Create|Add)/ })
        .first()
        .click();
      await page.getByText('* This field is required').first().waitFor();
    },
  ],
  ['role editor', '/user-management/roles/add', (page) => page.getByRole('table').first().waitFor()],
  ['reports', '/admin-reporting-management/reports', (page) => page.getByRole('heading', { level: 1 }).waitFor()],
  ['upload form', '/data-upload-management/uploads/add', (page) => page.getByRole('heading', { level: 1 }).waitFor()],
  ['audit log', '/user-management/audit-log', (page) => page.getByRole('heading', { level: 1 }).waitFor()],
];

describe('the colour scheme', () => {
  journey(
    'a browser set to dark shows the console dark from the sign-in screen on, every screen axe clean at 1280 and 390 px',
    async ({ page, audit }) => {
      await page.goto('/auth/login');
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      expect(await shownScheme(page)).toBe('dark');
      await audit('sign-in screen, dark');
      await loginThroughForm(page, ADMIN.email, ADMIN.password);
      await waitForPath(page, '/home');
      for (const [name, path, ready] of SCREENS) {
        await page.goto(path);
        await ready(page);
        for (const [width, size] of WIDTHS) {
          await page.setViewportSize(size);
          expect(await shownScheme(page), `${name} at ${width}`).toBe('dark');
          await audit(`${name}, dark, at ${width}`);
        }
        await page.setViewportSize(WIDTHS[0][1]);
      }
    },
    { colorScheme: 'dark', timeout: 120_000 },
  );

  journey(
    "the account menu's choice is kept over a reload, for its user only; the system's setting is overridden both ways",
    async ({ page, newContext }) => {
      await page.goto('/auth/login');
      await loginThroughForm(page, ADMIN.email, ADMIN.password);
      await waitForPath(page, '/home');
      expect(await shownScheme(page)).toBe('light');
      await chooseInAccountMenu(page, 'Dark');
      expect(await shownScheme(page)).toBe('dark');
      await page.reload();
      await page.locator('main article.home-card').first().waitFor();
      expect(await shownScheme(page)).toBe('dark');

      // Signed out, the sign-in screen follows the system again; another user on this browser has their own.
      await page.getByRole('button', { name: /account menu/ }).click();
      await page.getByRole('button', { name: 'Logout' }).click();
      await waitForPath(page, '/auth/login');
      expect(await shownScheme(page)).toBe('light');
      await loginThroughForm(page, SALES.email, SALES.password);
      await page.getByRole('button', { name: /account menu/ }).waitFor();
      expect(await shownScheme(page)).toBe('light');

      // Over a dark system, "Light" is light.
      const darkSystem = await (await newContext({ colorScheme: 'dark' })).newPage();
      await darkSystem.goto('/auth/login');
      await loginThroughForm(darkSystem, ADMIN.email, ADMIN.password);
      await waitForPath(darkSystem, '/home');
      expect(await shownScheme(darkSystem)).toBe('dark');
      await chooseInAccountMenu(darkSystem, 'Light');
      expect(await shownScheme(darkSystem)).toBe('light');
      await chooseInAccountMenu(darkSystem, 'System');
      expect(await shownScheme(darkSystem)).toBe('dark');
    },
  );
});
