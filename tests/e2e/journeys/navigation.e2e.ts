import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { ADMIN } from '../support/accounts.ts';
import { Api } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { pathOf, waitForPath } from '../support/ui.ts';

useBrowser();

const VOUCHERS = '/voucher-management/vouchers';
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** At least 25 vouchers, so a page of 20 is taller than the window. */
async function fillVoucherPage(api: Api): Promise<void> {
  const { meta } = await api.get<{ meta: { total: number } }>('vouchers?_page=1&_page_size=1');
  for (let index = meta.total; index < 25; index += 1) {
    await api.post('vouchers', { code: `SCROLL${String(index).padStart(3, '0')}`, discount_type: 'flat', discount_value: 10, valid_from: day(0), valid_to: day(5) });
  }
}

describe('navigation', () => {
  journey('SIDEBAR-04 SIDEBAR-05 the sidebar open or closed state survives a reload', async ({ page, signIn }) => {
    await signIn(ADMIN);
    await page.goto(VOUCHERS);
    const toggle = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Menu' });
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
    // Closed, the labels are only read out (visually hidden): what the eye sees is the label's rendered width.
    const labelVisible = async () => ((await nav(page).getByText('Voucher Management', { exact: true }).boundingBox())?.width ?? 0) > 20;
    await expect.poll(labelVisible, { timeout: 5_000 }).toBe(true);

    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.evaluate(() => sessionStorage.getItem('leftSideBar.IsOpen'))).toBe('false');
    expect(await labelVisible()).toBe(false);
    await page.reload();
    await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
    await nav(page).getByRole('link', { name: 'Voucher Management' }).waitFor({ state: 'attached' });
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await labelVisible()).toBe(false);

    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await page.evaluate(() => sessionStorage.getItem('leftSideBar.IsOpen'))).toBe('true');
    await page.reload();
    await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(labelVisible, { timeout: 5_000 }).toBe(true);
  });

  journey('HEADER-01 SIDEBAR-06 the header back button returns to the previous page; the current area is highlighted', async ({ page, signIn }) => {
    await signIn(ADMIN);
    await page.goto(VOUCHERS);
    await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    const current = () => nav.locator('a[aria-current="page"]').allTextContents();
    await expect.poll(current).toEqual([expect.stringContaining('Voucher Management')]);
    await nav.getByRole('link', { name: 'User Management' }).click();
    await waitForPath(page, /^\/user-management\//);
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    await expect.poll(current).toEqual([expect.stringContaining('User Management')]);
    await page.getByRole('button', { name: 'Back' }).click();
    await waitForPath(page, VOUCHERS);
    await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
    await expect.poll(current).toEqual([expect.stringContaining('Voucher Management')]);
  });

  for (const [what, linkName, opened] of [
    ["a record's detail", /^View /, /^\/voucher-management\/vouchers\/\d+$/],
    ["a record's edit form", /^Edit /, /^\/voucher-management\/vouchers\/\d+\/edit$/],
  ] as const) {
    journey(`ROUTE-07 the list's scroll position is restored when the browser goes back to it from ${what}`, async ({ page, signIn }) => {
      const tokens = await signIn(ADMIN);
      await fillVoucherPage(new Api(tokens));
      await page.goto(VOUCHERS);
      await page.getByRole('table').waitFor();
      await expect.poll(() => page.getByRole('row').count()).toBeGreaterThan(20);
      expect(await page.evaluate(() => document.scrollingElement!.scrollHeight - window.innerHeight), 'the list is taller than the window').toBeGreaterThan(600);
      await page.evaluate(() => window.scrollTo(0, 600));
      await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(600);
      // A link already in view, so clicking it does not scroll the page first.
      const links = page.getByRole('link', { name: linkName });
      let inView = -1;
      for (let index = 0; index < (await links.count()) && inView < 0; index += 1) {
        const box = await links.nth(index).boundingBox();
        if (box && box.y > 120 && box.y + box.height < 760) inView = index;
      }
      expect(inView).toBeGreaterThanOrEqual(0);
      await links.nth(inView).click();
      await waitForPath(page, opened);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
      await page.goBack();
      await waitForPath(page, VOUCHERS);
      await page.getByRole('table').waitFor();
      await expect.poll(() => page.evaluate(() => Math.round(window.scrollY)), { timeout: 5_000 }).toBe(600);
      expect(pathOf(page)).toBe(VOUCHERS);
    });
  }

  journey('ROUTE-07 the scroll position is also restored when going back from an edit form with unsaved changes, after "Leave"', async ({ page, signIn }) => {
    const tokens = await signIn(ADMIN);
    await fillVoucherPage(new Api(tokens));
    await page.goto(VOUCHERS);
    await page.getByRole('table').waitFor();
    await expect.poll(() => page.getByRole('row').count()).toBeGreaterThan(20);
    await page.evaluate(() => window.scrollTo(0, 600));
    await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(600);
    const links = page.getByRole('link', { name: /^Edit / });
    let inView = -1;
    for (let index = 0; index < (await links.count()) && inView < 0; index += 1) {
      const box = await links.nth(index).boundingBox();
      if (box && box.y > 120 && box.y + box.height < 760) inView = index;
    }
    expect(inView).toBeGreaterThanOrEqual(0);
    await links.nth(inView).click();
    await waitForPath(page, /^\/voucher-management\/vouchers\/\d+\/edit$/);
    await page.getByRole('button', { name: 'Save changes' }).waitFor();
    await page.getByRole('textbox').first().fill('UNSAVED1');
    // The blocker holds the back navigation (it puts the history entry back) until the user confirms.
    await page.goBack();
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await dialog.waitFor();
    expect(pathOf(page)).toMatch(/\/edit$/);
    await dialog.getByRole('button', { name: 'Leave' }).click();
    await waitForPath(page, VOUCHERS);
    await page.getByRole('table').waitFor();
    await expect.poll(() => page.evaluate(() => Math.round(window.scrollY)), { timeout: 5_000 }).toBe(600);
  });
});
