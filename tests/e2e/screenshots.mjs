#!/usr/bin/env node
/* global window, document, localStorage */
// Screenshots for docs/console.md: the built console and the API as `npm start` runs them (fresh demo data), in
// Chromium at 1280x800 (and one at a phone's 390 px; three in the dark scheme), saved as PNG into docs/screenshots/.
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
  operator: { email: 'operator@example.com', password: 'Operator@12345' },
};
const PHONE = { width: 390, height: 844 };
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

/**
 * The demo data has no subscription history, so the reporting charts would be empty: a year of subscriptions
 * and some top-ups are added first, through the API as an administrator would add them.
 */
async function addReportingActivity(baseUrl, tokens) {
  const call = async (method, path, body) => {
    const response = await fetch(`${baseUrl}/api/v1/${path}`, {
      method,
      headers: {
        authorization: `Bearer ${tokens.access}`,
        'APP-SOURCE': 'ADMIN_APP',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const plans = (await call('GET', 'plans?_page_size=100')).data;
  const subscribers = (await call('GET', 'subscribers?_page_size=100')).data;
  const now = new Date();
  let index = 0;
  for (let monthsAgo = 11; monthsAgo >= 0; monthsAgo -= 1) {
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo, 5));
    const count = 3 + ((11 - monthsAgo) % 4) + Math.floor((11 - monthsAgo) / 2);
    for (let n = 0; n < count; n += 1, index += 1) {
      const subscriber = subscribers[index % subscribers.length];
      const plan = plans[(index * 7 + monthsAgo) % plans.length];
      await call('POST', `subscribers/${subscriber.id}/subscriptions`, {
        plan_id: plan.id,
        starts_on: month.toISOString().slice(0, 10),
        amount_paid: plan.price ?? 0,
        payment_reference: `DEMO-${index}`,
      });
      if (n % 3 === 0)
        await call('POST', `subscribers/${subscriber.id}/top-ups`, {
          points: 500,
          amount: 2499,
          note: 'Demo top-up',
          idempotency_key: `screenshot-${String(index).padStart(4, '0')}`,
        });
    }
  }
}

async function signedInPage(browser, baseUrl, account, viewport = VIEWPORT, colorScheme = 'light') {
  const tokens = await login(baseUrl, account);
  const context = await browser.newContext({
    viewport,
    baseURL: baseUrl,
    deviceScaleFactor: 1,
    reducedMotion: 'reduce',
    colorScheme,
  });
  const page = await context.newPage();
  await page.route(`${baseUrl}/__blank__`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>blank</title>' }),
  );
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
async function shoot(page, name, viewport = VIEWPORT) {
  await page.evaluate(() => document.fonts.ready);
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.evaluate(() =>
    Promise.race([
      Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => null))),
      new Promise((resolve) => setTimeout(resolve, 1500)),
    ]),
  );
  await page.mouse.move(0, viewport.height - 1);
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
  const guest = await (
    await browser.newContext({ viewport: VIEWPORT, baseURL: stack.baseUrl, reducedMotion: 'reduce' })
  ).newPage();
  await guest.goto('/auth/login');
  await guest.getByRole('button', { name: 'Sign in' }).waitFor();
  await shoot(guest, 'login');

  await addReportingActivity(stack.baseUrl, await login(stack.baseUrl, ACCOUNTS.admin));
  const admin = await signedInPage(browser, stack.baseUrl, ACCOUNTS.admin);

  // The home screen, where everyone lands, in the light and the dark scheme (a browser set to dark).
  const dark = await signedInPage(browser, stack.baseUrl, ACCOUNTS.admin, VIEWPORT, 'dark');
  for (const [page, name] of [
    [admin, 'home'],
    [dark, 'home-dark'],
  ]) {
    await page.goto('/home');
    await page.locator('main article.home-card').nth(5).waitFor();
    await shoot(page, name);
  }

  // A list: the subscribers, a full page of demo data; and in the dark scheme.
  for (const [page, name] of [
    [admin, 'list'],
    [dark, 'list-dark'],
  ]) {
    await page.goto('/subscriber-management/subscribers');
    await page.getByRole('table').waitFor();
    await page.getByRole('row').nth(20).waitFor();
    await shoot(page, name);
  }

  // A form with errors: the voucher form submitted empty.
  await admin.goto('/voucher-management/vouchers/add');
  await admin.getByRole('button', { name: 'Create voucher' }).click();
  await admin.getByText('* This field is required').nth(4).waitFor();
  await admin.evaluate(() => window.scrollTo(0, 0));
  await shoot(admin, 'form-errors');

  // The role matrix: a new role with a few modules ticked.
  await admin.goto('/user-management/roles/add');
  // Executives: Edit ticked alone takes View along, and the matrix says so on the row.
  for (const name of ['Subscribers: all actions', 'Plans: View', 'Plans: Download', 'Executives: Edit']) {
    await admin.getByRole('checkbox', { name, exact: true }).check();
  }
  // The matrix with its note ("Executives: View granted too, …") above the table.
  await admin.getByRole('status').filter({ hasText: 'Executives: View granted too' }).waitFor();
  await admin
    .getByRole('search', { name: 'Search modules' })
    .or(admin.getByRole('searchbox', { name: 'Search modules' }))
    .scrollIntoViewIfNeeded();
  // Ticking a checkbox at the right scrolled the matrix sideways; show it from its first column.
  await admin.evaluate(() =>
    document.querySelectorAll('main *').forEach((element) => element.scrollLeft && (element.scrollLeft = 0)),
  );
  await shoot(admin, 'role-matrix');

  // The reporting charts, light and dark.
  for (const [page, name] of [
    [admin, 'reporting'],
    [dark, 'reporting-dark'],
  ]) {
    await page.goto('/admin-reporting-management');
    await page.locator('canvas').first().waitFor({ timeout: 20_000 });
    await shoot(page, name);
  }

  // The same charts on a phone: fewer month labels, none over another.
  const phone = await signedInPage(browser, stack.baseUrl, ACCOUNTS.admin, PHONE);
  await phone.goto('/admin-reporting-management');
  await phone.locator('canvas').first().waitFor({ timeout: 20_000 });
  await phone.getByRole('figure', { name: 'Subscribers by plan' }).scrollIntoViewIfNeeded();
  await shoot(phone, 'reporting-phone', PHONE);

  // The trade-data upload form, in the generated forms' style.
  const operator = await signedInPage(browser, stack.baseUrl, ACCOUNTS.operator);
  await operator.goto('/data-upload-management/uploads/add');
  await operator.getByRole('button', { name: 'Upload' }).waitFor();
  await shoot(operator, 'upload-form');

  // The 403 page: the sales executive opening vouchers.
  const sales = await signedInPage(browser, stack.baseUrl, ACCOUNTS.sales);
  await sales.goto('/voucher-management/vouchers');
  await sales.getByRole('heading', { name: /ERROR 403/ }).waitFor();
  await shoot(sales, '403');
} finally {
  await browser?.close();
  await stack.dispose();
}
