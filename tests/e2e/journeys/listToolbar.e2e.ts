import type { Page } from 'playwright-core';
import { beforeAll, describe, expect } from 'vitest';
import { ADMIN } from '../support/accounts.ts';
import { Api, unique, uniqueLetters } from '../support/api.ts';
import { journey, useBrowser, type Account } from '../support/journey.ts';
import { verifyAddress } from '../support/mail.ts';
import { row } from '../support/ui.ts';

useBrowser();

const LIST = '/subscriber-management/subscribers';
const PASSWORD = 'Journey@2468';
const SIZES = [
  ['1280x800', { width: 1280, height: 800 }],
  ['390x844', { width: 390, height: 844 }],
] as const;

/** A reader of the subscribers list in a role of its own, so the views it saves show in no other journey's list. */
async function listReader(): Promise<Account> {
  const admin = await Api.login(ADMIN.email, ADMIN.password);
  const { data: role } = await admin.post<{ data: { id: number } }>('roles', {
    name: `Toolbar ${uniqueLetters(6)}`,
    description: 'Made by the end-to-end suite',
  });
  await admin.put(
    `roles/${role.id}/permissions`,
    { permissions: { SUBSCRIBERS: ['view'], USER_PROFILE: ['view'] } },
    { 'if-match': '*' },
  );
  const email = `${unique('toolbar').toLowerCase()}@example.com`;
  await admin.post('users', {
    first_name: 'Toolbar',
    last_name: 'Reader',
    email,
    mobile: '9876512348',
    role_id: role.id,
    password: PASSWORD,
    confirm_password: PASSWORD,
  });
  await verifyAddress(email);
  return { email, password: PASSWORD };
}

const chip = (page: Page, text: string) => page.getByRole('button', { name: `Remove filter: ${text}`, exact: true });
const query = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

/** The page itself never scrolls sideways (the table scrolls inside its own region). */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const [scrollWidth, innerWidth] = await page.evaluate(() => [
    document.scrollingElement!.scrollWidth,
    window.innerWidth,
  ]);
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

async function openViewsMenu(page: Page) {
  await page.getByRole('button', { name: /^(Views|View: .*)$/ }).click();
  return page.getByRole('region', { name: /^(Views|View: .*)$/ });
}

describe('the list toolbar: search, filter chips and keys', () => {
  let name = '';
  beforeAll(async () => {
    const admin = await Api.login(ADMIN.email, ADMIN.password);
    const [country] = (await admin.get<{ data: { value: number }[] }>('countries/options')).data;
    name = `Toolbar ${uniqueLetters(8)}`;
    await admin.post('subscribers', {
      name,
      email: `${unique('toolbar').toLowerCase()}@example.org`,
      mobile: '9876504322',
      country_id: country!.value,
    });
  });

  for (const [size, viewport] of SIZES) {
    journey(
      `at ${size}: filters closed by default, two added as chips in the address, kept by a reload and a saved view, one removed; "/" searches and Escape clears`,
      async ({ page, signIn, audit }) => {
        await signIn(await listReader());
        await page.goto(LIST);
        await page.getByRole('heading', { name: 'Subscribers', level: 1 }).waitFor();
        const firstRecord = page.locator('main').getByRole('row').nth(1);
        await firstRecord.waitFor();

        // Closed by default: a Filter button, no wall of filters.
        const filterButton = page.getByRole('button', { name: 'Filter', exact: true });
        expect(await filterButton.getAttribute('aria-expanded')).toBe('false');
        expect(await page.getByRole('dialog').count()).toBe(0);
        expect(await page.getByRole('combobox', { name: 'Status' }).count()).toBe(0);
        // The first record shows on the first screen, and the page does not scroll sideways.
        const box = (await firstRecord.boundingBox())!;
        expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
        await expectNoSidewaysScroll(page);
        await audit(`subscriber list at ${size}`);

        // Two filters, each from the Filter dialog; focus goes into it and comes back to the button.
        await filterButton.click();
        const dialog = page.getByRole('dialog', { name: 'Add a filter' });
        const field = dialog.getByRole('combobox', { name: 'Field', exact: true });
        await expect.poll(() => field.evaluate((element) => element === document.activeElement)).toBe(true);
        await field.selectOption({ label: 'Status' });
        await dialog.getByRole('combobox', { name: 'Condition', exact: true }).selectOption({ label: 'is any of' });
        await dialog.getByRole('checkbox', { name: 'No subscription' }).check();
        await dialog.getByRole('checkbox', { name: 'Trial' }).check();
        await expectNoSidewaysScroll(page);
        await audit(`the Filter dialog at ${size}`);
        await dialog.getByRole('button', { name: 'Apply' }).click();
        await dialog.waitFor({ state: 'detached' });
        expect(await filterButton.evaluate((element) => element === document.activeElement)).toBe(true);

        await filterButton.click();
        await field.selectOption({ label: 'Active' });
        await dialog.getByRole('combobox', { name: 'Active', exact: true }).selectOption({ label: 'Active' });
        await dialog.getByRole('button', { name: 'Apply' }).click();
        await chip(page, 'Status is any of No subscription, Trial').waitFor();
        await chip(page, 'Active is Active').waitFor();
        await expect.poll(() => query(page)).toEqual({ status: 'none,trial', is_active: 'true' });
        await row(page, name).first().waitFor();
        await expectNoSidewaysScroll(page);
        await audit(`subscriber list with two filter chips at ${size}`);

        // A reload keeps them: they live in the address.
        await page.reload();
        await chip(page, 'Status is any of No subscription, Trial').waitFor();
        await chip(page, 'Active is Active').waitFor();

        // A saved view keeps them: cleared, then the view brings both back.
        const menu = await openViewsMenu(page);
        await menu.getByLabel('Save current as…').fill('Open and active');
        await menu.getByRole('button', { name: 'Save view' }).click();
        await page.waitForURL((url) => url.searchParams.has('view'));
        const viewId = new URL(page.url()).searchParams.get('view');
        await page.keyboard.press('Escape');
        await menu.waitFor({ state: 'detached' });
        await page.getByRole('button', { name: 'Clear all' }).click();
        await chip(page, 'Active is Active').waitFor({ state: 'detached' });
        expect(await chip(page, 'Status is any of No subscription, Trial').count()).toBe(0);
        await (await openViewsMenu(page)).getByRole('button', { name: 'Open and active', exact: true }).click();
        await page.waitForURL((url) => url.searchParams.get('view') === viewId);
        await chip(page, 'Status is any of No subscription, Trial').waitFor();
        await chip(page, 'Active is Active').waitFor();
        await expect.poll(() => query(page)).toEqual({ view: viewId, status: 'none,trial', is_active: 'true' });

        // Removing one chip leaves the other, in the address too.
        await chip(page, 'Active is Active').click();
        await chip(page, 'Active is Active').waitFor({ state: 'detached' });
        await expect.poll(() => query(page).is_active).toBeUndefined();
        expect(query(page).status).toBe('none,trial');

        // "/" puts focus in the search (from outside any field); typing searches; Escape clears it and the address.
        await page.getByRole('heading', { name: 'Subscribers', level: 1 }).click();
        await page.keyboard.press('/');
        const search = page.getByRole('searchbox', { name: 'Search subscribers' });
        await expect.poll(() => search.evaluate((element) => element === document.activeElement)).toBe(true);
        await page.keyboard.type(name, { delay: 30 });
        await expect.poll(() => query(page).q).toBe(name);
        await row(page, name).first().waitFor();
        await page.keyboard.press('Escape');
        expect(await search.inputValue()).toBe('');
        await expect.poll(() => query(page).q).toBeUndefined();
        expect(query(page).status).toBe('none,trial');
      },
      { viewport },
    );
  }
});
