import { describe, expect } from 'vitest';
import { ADMIN } from '../support/accounts.ts';
import { Api } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { pathOf, waitForPath } from '../support/ui.ts';

useBrowser();

const VOUCHERS = '/voucher-management/vouchers';
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe('navigation', () => {
  journey('SIDEBAR-04 SIDEBAR-05 the sidebar open or closed state survives a reload', async ({ page, signIn }) => {
    await signIn(ADMIN);
    await page.goto(VOUCHERS);
    const toggle = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Menu' });
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    const labelVisible = () => page.getByRole('navigation', { name: 'Main' }).getByText('Voucher Management', { exact: true }).isVisible();
    expect(await labelVisible()).toBe(true);

    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.evaluate(() => sessionStorage.getItem('leftSideBar.IsOpen'))).toBe('false');
    expect(await labelVisible()).toBe(false);
    await page.reload();
    await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await labelVisible()).toBe(false);

    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await page.evaluate(() => sessionStorage.getItem('leftSideBar.IsOpen'))).toBe('true');
    await page.reload();
    await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await labelVisible()).toBe(true);
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

  journey('ROUTE-07 the scroll position of a list is restored when the browser goes back to it', async ({ page, signIn }) => {
    const tokens = await signIn(ADMIN);
    // A full page of vouchers, so the list is taller than the window.
    const api = new Api(tokens);
    const { meta } = await api.get<{ meta: { total: number } }>('vouchers?_page=1&_page_size=1');
    for (let index = meta.total; index < 25; index += 1) {
      await api.post('vouchers', { code: `SCROLL${String(index).padStart(3, '0')}`, discount_type: 'flat', discount_value: 10, valid_from: day(0), valid_to: day(5) });
    }
    await page.goto(VOUCHERS);
    await page.getByRole('table').waitFor();
    await expect.poll(() => page.getByRole('row').count()).toBeGreaterThan(20);
    const scroller = await page.evaluate(() => document.scrollingElement!.scrollHeight > window.innerHeight);
    expect(scroller, 'the list is taller than the window').toBe(true);
    await page.evaluate(() => window.scrollTo(0, 600));
    await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(600);
    const target = await page.evaluate(() => window.scrollY);
    // A row near the bottom: its edit screen opens at the top.
    await page.getByRole('link', { name: /^Edit / }).last().click();
    await waitForPath(page, /\/edit$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await page.goBack();
    await waitForPath(page, VOUCHERS);
    await page.getByRole('table').waitFor();
    await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(Math.round(target));
    expect(pathOf(page)).toBe(VOUCHERS);
  });
});
