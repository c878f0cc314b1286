import type { Locator, Page, Request } from 'playwright-core';
import { expect } from 'vitest';
import { API_URL, TOKEN_KEY } from './env.ts';

/** Waits until the address bar shows this path (query and hash ignored). */
export async function waitForPath(page: Page, path: string | RegExp, timeout = 15_000): Promise<void> {
  await page.waitForURL((url) => (typeof path === 'string' ? url.pathname === path : path.test(url.pathname)), {
    timeout,
  });
}

export const pathOf = (page: Page) => new URL(page.url()).pathname;

/** Polls a value until it satisfies the check (the browser settles asynchronously). */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeout = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeout;
  let value = await read();
  while (!check(value)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

/**
 * Types the credentials and submits with Enter from the password field. (Clicking "Sign in" right after typing
 * can miss: a stale error flashes under the e-mail field for 200 ms and moves the button, see auth.e2e.ts.)
 */
export async function loginThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Password', { exact: true }).press('Enter');
}

/** The stored access token, or null (SESSION-02). */
export const storedToken = (page: Page) => page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY);

/** An "Error"-titled toast (ERR-01) whose message contains the text. */
export function errorToast(page: Page, message: string | RegExp): Locator {
  return page
    .locator('.toast-body')
    .filter({ has: page.locator('.toast-title', { hasText: /^Error$/ }) })
    .filter({ hasText: message });
}

export function toast(page: Page, message: string | RegExp): Locator {
  return page.locator('.toast-body').filter({ hasText: message });
}

/** The labels of the sidebar entries, in order. */
export async function sidebarLabels(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.waitFor();
  // The icon is aria-hidden; the label is the link's last span (hidden visually when closed).
  return (await nav.locator('.sidebar-link > span:last-child').allTextContents()).map((text) => text.trim());
}

/** The sidebar link of an entry, by its label. */
export function sidebarLink(page: Page, label: string): Locator {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true });
}

/** Collects the API requests a page makes (method, API path, headers). */
export function recordApiCalls(
  page: Page,
): { method: string; path: string; query: URLSearchParams; headers: Record<string, string>; body: string | null }[] {
  const calls: {
    method: string;
    path: string;
    query: URLSearchParams;
    headers: Record<string, string>;
    body: string | null;
  }[] = [];
  const root = new URL(API_URL);
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.origin !== root.origin || !url.pathname.startsWith(root.pathname)) return;
    calls.push({
      method: request.method(),
      path: url.pathname.slice(root.pathname.length),
      query: url.searchParams,
      headers: request.headers(),
      body: request.postData(),
    });
  });
  return calls;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A form field by its label; rjsf marks required ones with a trailing "*" inside the label. */
export function field(page: Page, label: string): Locator {
  return page.getByLabel(new RegExp(`^\\s*${escapeRegExp(label)}\\s*\\*?\\s*$`));
}

/** The error text shown under a form field (the element its id + "__error" names, as rjsf ties them). */
export async function fieldErrorText(page: Page, label: string): Promise<string | null> {
  const id = await field(page, label).getAttribute('id');
  if (!id) return null;
  const error = page.locator(`[id="${id}__error"]`);
  return (await error.count()) > 0 ? ((await error.textContent()) ?? '').trim() : null;
}

/** Waits until the field shows exactly this error (errors are debounced, FORM-02). */
export async function expectFieldError(page: Page, label: string, text: string | null, timeout = 5_000): Promise<void> {
  await eventually(
    () => fieldErrorText(page, label),
    (shown) => shown === text,
    timeout,
    `"${label}" to show error ${JSON.stringify(text)}`,
  );
}

/** The table row holding this text. */
export function row(page: Page, text: string): Locator {
  return page.getByRole('row').filter({ hasText: text });
}

/** Chooses one of a list row's actions (View, Details, Edit, Delete) from the row's actions menu. */
export async function rowAction(
  page: Page,
  label: string,
  action: 'View' | 'Details' | 'Edit' | 'Delete',
): Promise<void> {
  await page.getByRole('button', { name: `Actions for ${label}`, exact: true }).click();
  await page
    .getByRole('menu', { name: `Actions for ${label}`, exact: true })
    .getByRole('menuitem', { name: action, exact: true })
    .click();
}

/** The text of a select's chosen option (rjsf's enum selects use indexes as option values). */
export function selectedOption(select: Locator): Promise<string> {
  return select.evaluate((element) => ((element as HTMLSelectElement).selectedOptions[0]?.textContent ?? '').trim());
}

/** Picks a related record in a form's combobox: types part of its label, then clicks the match the server found. */
export async function chooseRelated(page: Page, label: string, optionLabel: string): Promise<void> {
  const combobox = page.getByRole('combobox', { name: new RegExp(`^\\s*${escapeRegExp(label)}\\s*\\*?\\s*$`) });
  await combobox.fill(optionLabel.slice(0, Math.min(optionLabel.length, 6)));
  await page.getByRole('listbox').getByRole('option', { name: optionLabel, exact: true }).click();
  await expect.poll(() => combobox.inputValue()).toBe(optionLabel);
}

const PHONE = { width: 390, height: 800 };
const DESKTOP = { width: 1280, height: 800 };

/** axe on the page at the phone's width and at the desktop's; at each, the page itself never scrolls sideways. */
export async function auditBothWidths(
  page: Page,
  audit: (screen: string) => Promise<void>,
  screen: string,
): Promise<void> {
  for (const [name, size] of [
    ['390 px', PHONE],
    ['1280 px', DESKTOP],
  ] as const) {
    await page.setViewportSize(size);
    await page.waitForTimeout(200);
    await audit(`${screen} at ${name}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${screen} at ${name}`).toBeLessThanOrEqual(
      size.width,
    );
  }
}
