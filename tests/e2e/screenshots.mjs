#!/usr/bin/env node
// Screenshots for the README: the built console and the API as `npm start` runs them (fresh demo data), in
// Chromium at 1280x800, saved as PNG into docs/screenshots/.
//
// Usage: node tests/e2e/screenshots.mjs [--no-build]
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, ROOT, VIEWPORT, createStack, ensureBuild } from './lib/stack.mjs';

const OUT = join(ROOT, 'docs', 'screenshots');
const TOKEN_KEY = 'prod-admin-auth-token';
const ACCOUNTS = {
  admin: { email: 'admin@example.com', password: 'Admin@12345' },
  sales: { email: 'sales@example.com', password: 'Sales@12345' },
};
const log = (line) => console.log(`[screenshots] ${line}`);

async function login(baseUrl, account) {
  const response = await fetch(`${baseUrl}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'APP-SOURCE': 'ADMIN_APP' },
    body: JSON.stringify(account),
  });
  if (!response.ok) throw new Error(`login ${account.email}: ${response.status}`);
  return (await response.json()).data;
}

async function signedInPage(browser, baseUrl, account) {
  const tokens = await login(baseUrl, account);
  const context = await browser.newContext({ viewport: VIEWPORT, baseURL: baseUrl, deviceScaleFactor: 1, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.route(`${baseUrl}/__blank__`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>blank</title>' }));
  await page.goto('/__blank__');
  await page.evaluate(
    ([key, access, refresh]) => {
      localStorage.setItem(key, access);
      localStorage.setItem(`${key}_REFRESH`, refresh);
    },
    [TOKEN_KEY, tokens.access, tokens.refresh],
  );
  return page;
}

/** Waits for fonts, images and animations, then saves the window (not the full page) as PNG. */
async function shoot(page, name) {
  await page.evaluate(() => document.fonts.ready);
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.evaluate(() =>
    Promise.race([Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => null))), new Promise((resolve) => setTimeout(resolve, 1500))]),
  );
  await page.mouse.move(0, VIEWPORT.height - 1);
  const path = join(OUT, `${name}.png`);
  await page.screenshot({ path, type: 'png' });
  log(`saved ${path}`);
}

const flags = new Set(process.argv.slice(2));
mkdirSync(OUT, { recursive: true });
if (!flags.has('--no-build')) await ensureBuild({ log });
const stack = await createStack({ log });
let browser = null;
try {
  await stack.start();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });

  // The login screen, logged out.
  const guest = await (await browser.newContext({ viewport: VIEWPORT, baseURL: stack.baseUrl, reducedMotion: 'reduce' })).newPage();
  await guest.goto('/auth/login');
  await guest.getByRole('button', { name: 'Sign in' }).waitFor();
  await shoot(guest, 'login');

  const admin = await signedInPage(browser, stack.baseUrl, ACCOUNTS.admin);

  // A list: the subscribers, a full page of demo data.
  await admin.goto('/subscriber-management/subscribers');
  await admin.getByRole('table').waitFor();
  await admin.getByRole('row').nth(20).waitFor();
  await shoot(admin, 'list');

  // A form with errors: the voucher form submitted empty, then a code in the wrong shape.
  await admin.goto('/voucher-management/vouchers/add');
  await admin.getByRole('button', { name: 'Create voucher' }).click();
  await admin.getByLabel(/^Code/).fill('ab');
  await admin.getByLabel(/^Description/).focus();
  await admin.getByText('* Use 4 to 20 capital letters or digits.').waitFor();
  await admin.evaluate(() => window.scrollTo(0, 0));
  await shoot(admin, 'form-errors');

  // The role matrix: the Sales Executive role's permissions.
  await admin.goto('/user-management/roles');
  await admin.getByRole('link', { name: 'Edit Sales Executive' }).click();
  await admin.getByRole('checkbox', { name: /^Subscribers: View$/ }).waitFor();
  await admin.getByText('Permissions', { exact: true }).scrollIntoViewIfNeeded();
  await admin.evaluate(() => window.scrollBy(0, -80));
  await shoot(admin, 'role-matrix');

  // The reporting charts.
  await admin.goto('/admin-reporting-management');
  await admin.locator('canvas').first().waitFor({ timeout: 20_000 });
  await shoot(admin, 'reporting');

  // The 403 page: the sales executive opening vouchers.
  const sales = await signedInPage(browser, stack.baseUrl, ACCOUNTS.sales);
  await sales.goto('/voucher-management/vouchers');
  await sales.getByRole('heading', { name: /ERROR 403/ }).waitFor();
  await shoot(sales, '403');
} finally {
  await browser?.close();
  await stack.dispose();
}
