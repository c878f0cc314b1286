import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect } from 'vitest';
import { ADMIN } from '../support/accounts.ts';
import { Api, unique, uniqueLetters } from '../support/api.ts';
import { journey, useBrowser, type Account } from '../support/journey.ts';
import { verifyAddress } from '../support/mail.ts';
import { row, waitForPath } from '../support/ui.ts';

useBrowser();

const LIST = '/voucher-management/vouchers';
const PASSWORD = 'Journey@2468';
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A role of list readers and users of it, made for these journeys alone, so no other journey's lists change. */
async function roleWithUsers(admin: Api, count: number): Promise<{ name: string; users: Account[] }> {
  const name = `Views ${uniqueLetters(6)}`;
  const { data: role } = await admin.post<{ data: { id: number } }>('roles', {
    name,
    description: 'Made by the end-to-end suite',
  });
  await admin.put(
    `roles/${role.id}/permissions`,
    { permissions: { VOUCHER: ['view', 'download'], USER_PROFILE: ['view'] } },
    { 'if-match': '*' },
  );
  const users: Account[] = [];
  for (let index = 0; index < count; index += 1) {
    const email = `${unique('views').toLowerCase()}@example.com`;
    await admin.post('users', {
      first_name: 'Views',
      last_name: `Reader${'abc'[index]}`,
      email,
      mobile: '9876512347',
      role_id: role.id,
      password: PASSWORD,
      confirm_password: PASSWORD,
    });
    await verifyAddress(email);
    users.push({ email, password: PASSWORD });
  }
  return { name, users };
}

async function openList(page: Page, at = LIST): Promise<void> {
  await page.goto(at);
  await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
}

/** The Views menu, named after the view open, if any. */
const VIEWS_MENU = /^(Views|View: .*)$/;

async function openViewsMenu(page: Page) {
  await page.getByRole('button', { name: VIEWS_MENU }).click();
  return page.getByRole('region', { name: VIEWS_MENU });
}

/** Adds a filter with the list's Filter dialog: the field, its first condition ("is") and the value. */
async function filterBy(page: Page, field: string, value: string): Promise<void> {
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a filter' });
  await dialog.getByRole('combobox', { name: 'Field', exact: true }).selectOption({ label: field });
  await dialog.getByRole('combobox', { name: field, exact: true }).selectOption({ label: value });
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await dialog.waitFor({ state: 'detached' });
}

async function saveView(page: Page, name: string, shareWith?: string): Promise<void> {
  const menu = await openViewsMenu(page);
  await menu.getByLabel('Save current as…').fill(name);
  if (shareWith) await menu.getByLabel('Share with', { exact: true }).selectOption({ label: shareWith });
  await menu.getByRole('button', { name: 'Save view' }).click();
  await page.waitForURL(/[?&]view=\d+/);
}

describe('saved views and columns', () => {
  const code = unique('VIEWS')
    .slice(0, 20)
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
  beforeAll(async () => {
    const admin = await Api.login(ADMIN.email, ADMIN.password);
    await admin.post('vouchers', {
      code,
      discount_type: 'percent',
      discount_value: 12,
      valid_from: day(0),
      valid_to: day(20),
    });
  });

  journey(
    'a saved view follows its user to another browser: saved in one, opened and made the default in the other',
    async ({ page, signIn, newContext, audit }) => {
      const admin = await Api.login(ADMIN.email, ADMIN.password);
      const { users } = await roleWithUsers(admin, 1);
      const [user] = users as [Account];
      await signIn(user);
      await openList(page);
      await filterBy(page, 'Discount type', 'Percent');
      await page.getByRole('button', { name: 'Remove filter: Discount type is Percent' }).waitFor();
      await page.getByRole('searchbox', { name: /search vouchers/i }).fill(code);
      await row(page, code).waitFor();
      await saveView(page, 'Percent, searched');
      const viewId = new URL(page.url()).searchParams.get('view');
      await audit('voucher list with a saved view and chips');

      const other = await newContext();
      await signIn(user, other);
      const elsewhere = await other.newPage();
      await openList(elsewhere);
      const menu = await openViewsMenu(elsewhere);
      await menu.getByRole('button', { name: 'Percent, searched' }).click();
      await elsewhere.waitForURL(
        (url) =>
          url.searchParams.get('view') === viewId &&
          url.searchParams.get('discount_type') === 'percent' &&
          url.searchParams.get('q') === code,
      );
      await row(elsewhere, code).waitFor();
      const reopened = await openViewsMenu(elsewhere);
      await reopened.getByRole('button', { name: 'Make default' }).click();
      await reopened.getByText('Default', { exact: true }).waitFor();

      // Back in the first browser, the plain list opens with the default view.
      await openList(page);
      await page.waitForURL((url) => url.searchParams.get('view') === viewId);
      await row(page, code).waitFor();
      expect(await page.getByRole('button', { name: 'Remove filter: Discount type is Percent' }).count()).toBe(1);
    },
  );

  journey(
    'a view shared with a role: another user of the role opens it, a user of another role neither sees nor opens it',
    async ({ page, signIn, newContext, audit }) => {
      const admin = await Api.login(ADMIN.email, ADMIN.password);
      const shared = await roleWithUsers(admin, 2);
      const outsider = (await roleWithUsers(admin, 1)).users[0]!;
      const [owner, colleague] = shared.users as [Account, Account];
      await signIn(owner);
      await openList(page);
      await filterBy(page, 'Discount type', 'Percent');
      await saveView(page, 'Team percent', shared.name);
      const address = new URL(page.url());

      const colleagueContext = await newContext();
      await signIn(colleague, colleagueContext);
      const colleaguePage = await colleagueContext.newPage();
      await openList(colleaguePage);
      const menu = await openViewsMenu(colleaguePage);
      await menu.getByText('By Views Readera').waitFor();
      expect(await menu.getByRole('button', { name: 'Rename' }).count()).toBe(0);
      await menu.getByRole('button', { name: 'Team percent' }).click();
      await colleaguePage.waitForURL((url) => url.searchParams.get('discount_type') === 'percent');
      await audit('a shared view opened by a colleague', colleaguePage);

      const outsiderContext = await newContext();
      await signIn(outsider, outsiderContext);
      const outsiderPage = await outsiderContext.newPage();
      await openList(outsiderPage);
      await (await openViewsMenu(outsiderPage)).getByText('No saved views yet.').waitFor();
      await openList(outsiderPage, `${LIST}${address.search}`);
      await outsiderPage.getByText(/That saved view is not available to you/).waitFor();
      await waitForPath(outsiderPage, LIST);
      await outsiderPage.waitForURL((url) => url.search === '');
    },
  );

  journey(
    'hidden columns stay hidden in the CSV export, and come back after a reload',
    async ({ page, signIn, audit }) => {
      const admin = await Api.login(ADMIN.email, ADMIN.password);
      const [user] = (await roleWithUsers(admin, 1)).users as [Account];
      await signIn(user);
      await openList(page);
      await page.getByRole('button', { name: 'Columns', exact: true }).click();
      const columns = page.getByRole('region', { name: 'Columns', exact: true });
      await columns.getByRole('checkbox', { name: 'Discount type' }).click();
      await columns.getByRole('list', { name: 'Hidden' }).getByRole('checkbox', { name: 'Discount type' }).waitFor();
      await columns.getByRole('button', { name: 'Move Discount value up' }).click();
      await audit('the columns menu');
      await expect.poll(() => page.getByRole('columnheader').allTextContents()).not.toContain('Discount type');
      await page.reload();
      await page.getByRole('table').waitFor();
      await expect
        .poll(async () =>
          (await page.getByRole('columnheader').allTextContents())
            .slice(0, 2)
            .map((text) => text.replace(/[↕↑↓]/g, '').trim()),
        )
        .toEqual(['Discount value', 'Code']);

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('button', { name: 'Download CSV' }).click();
      const header = (await readFile((await (await download).path())!, 'utf8'))
        .replace(/^\uFEFF/, '')
        .split(/\r?\n/)[0]!;
      expect(header.split(',').slice(0, 2)).toEqual(['Discount value', 'Code']);
      expect(header).not.toContain('Discount type');
    },
  );
});
