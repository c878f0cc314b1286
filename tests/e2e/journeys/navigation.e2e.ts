import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { ADMIN, OPERATOR } from '../support/accounts.ts';
import { Api } from '../support/api.ts';
import { audit as axe } from '../support/axe.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { pathOf, sidebarLabels, waitForPath } from '../support/ui.ts';

useBrowser();

const VOUCHERS = '/voucher-management/vouchers';
const LONG_VOUCHER_PAGE = `${VOUCHERS}?size=50`;
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const PHONE = { viewport: { width: 390, height: 844 } };

/**
 * The links of docs/spec/seed-spec.md (SIDEBAR-01, SIDEBAR-02): each entry goes to the user's default route under it,
 * or exactly to a fixed one.
 */
const SPEC_LINKS = [
  '/user-management',
  '/subscription-management',
  '/subscriber-management',
  '/masters',
  '/data-upload-management',
  '/data-column',
  '/subscribers-details-management',
  '/voucher-management',
  '/executive-profile-management',
  '/admin-reporting-management',
  '/banner-management/list',
  '/category-management',
  '/employee-management',
  '/company-management/list',
  '/country-management/list',
];
const FIXED_LINKS = [
  '/company-employee-contacts-management/list',
  '/create-hs-code-management/list',
  '/related-product-management/list',
];
const ADMIN_SECTIONS = [
  { heading: 'Administration', labels: ['Users and roles', 'Master data', 'Employees'] },
  {
    heading: 'Subscribers and sales',
    labels: [
      'Plans and offers',
      'Subscribers',
      'Subscriber activity',
      'Voucher codes',
      'Sales executives',
      'Admin Reporting',
    ],
  },
  {
    heading: 'Trade data',
    labels: ['Data uploads', 'Data columns', 'Available countries', 'HS codes', 'Related products'],
  },
  { heading: 'Website', labels: ['Banners', 'Categories'] },
  { heading: 'Company directory', labels: ['Companies', 'Company contacts'] },
];

/** Opens a record from the actions menu of a row already in view (so the click does not scroll the page first). */
async function openFromRowInView(page: Page, item: 'View' | 'Edit'): Promise<void> {
  const buttons = page.getByRole('button', { name: /^Actions for / });
  let inView = -1;
  for (let index = 0; index < (await buttons.count()) && inView < 0; index += 1) {
    const box = await buttons.nth(index).boundingBox();
    if (box && box.y > 120 && box.y + box.height < 600) inView = index;
  }
  expect(inView).toBeGreaterThanOrEqual(0);
  await buttons.nth(inView).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

/** Each heading of the sidebar, as the list it names, with its links' labels and addresses. */
const sections = (page: Page) =>
  nav(page)
    .locator('ul[aria-labelledby]')
    .evaluateAll((lists) =>
      lists.map((list) => ({
        heading: document.getElementById(list.getAttribute('aria-labelledby')!)!.textContent,
        labels: [...list.querySelectorAll('a')].map((link) => link.textContent),
        hrefs: [...list.querySelectorAll('a')].map((link) => link.getAttribute('href')!),
      })),
    );

/** Every link goes where docs/spec/seed-spec.md says: under its link (the default route), or exactly to a fixed one. */
function expectSpecLinks(hrefs: string[]): void {
  for (const href of hrefs) {
    const fixed = FIXED_LINKS.includes(href);
    const under = SPEC_LINKS.find((link) => href === link || href.startsWith(`${link}/`));
    expect(fixed || under !== undefined, href).toBe(true);
  }
}

/** axe-core's violations inside one part of the page (the page-wide audit is recorded by `audit`). */
const violationsIn = async (page: Page, selector: string) => {
  await axe(page, 'navigation', selector);
  return page.evaluate(
    `window.axe.run(${JSON.stringify(selector)}, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => v.id))`,
  );
};

/** At least 55 vouchers, so a page of 50 one-line rows is taller than the window. */
async function fillVoucherPage(api: Api): Promise<void> {
  const { meta } = await api.get<{ meta: { total: number } }>('vouchers?_page=1&_page_size=1');
  for (let index = meta.total; index < 55; index += 1) {
    await api.post('vouchers', {
      code: `SCROLL${String(index).padStart(3, '0')}`,
      discount_type: 'flat',
      discount_value: 10,
      valid_from: day(0),
      valid_to: day(5),
    });
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
    const labelVisible = async () =>
      ((await nav(page).getByText('Voucher codes', { exact: true }).boundingBox())?.width ?? 0) > 20;
    await expect.poll(labelVisible, { timeout: 5_000 }).toBe(true);

    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.evaluate(() => sessionStorage.getItem('leftSideBar.IsOpen'))).toBe('false');
    expect(await labelVisible()).toBe(false);
    await page.reload();
    await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
    await nav(page).getByRole('link', { name: 'Voucher codes' }).waitFor({ state: 'attached' });
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

  journey(
    'HEADER-01 SIDEBAR-06 the header back button returns to the previous page; the current area is highlighted',
    async ({ page, signIn }) => {
      await signIn(ADMIN);
      await page.goto(VOUCHERS);
      await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
      const nav = page.getByRole('navigation', { name: 'Main' });
      const current = () => nav.locator('a[aria-current="page"]').allTextContents();
      await expect.poll(current).toEqual([expect.stringContaining('Voucher codes')]);
      await nav.getByRole('link', { name: 'Users and roles' }).click();
      await waitForPath(page, /^\/user-management\//);
      await page.getByRole('heading', { name: 'Users' }).waitFor();
      await expect.poll(current).toEqual([expect.stringContaining('Users and roles')]);
      await page.getByRole('button', { name: 'Back' }).click();
      await waitForPath(page, VOUCHERS);
      await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
      await expect.poll(current).toEqual([expect.stringContaining('Voucher codes')]);
    },
  );

  journey(
    'SIDEBAR-01 SIDEBAR-02 SIDEBAR-06 at 1280 px an administrator sees every spec link grouped under headings, one highlighted',
    async ({ page, signIn, audit }) => {
      await signIn(ADMIN);
      await page.goto(VOUCHERS);
      await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
      await expect
        .poll(async () => (await sections(page)).map(({ heading, labels }) => ({ heading, labels })))
        .toEqual(ADMIN_SECTIONS);
      expect((await sidebarLabels(page))[0]).toBe('Home');
      const hrefs = (await sections(page)).flatMap((section) => section.hrefs);
      expectSpecLinks(hrefs);
      expect(hrefs.filter((href) => FIXED_LINKS.includes(href)).sort()).toEqual([...FIXED_LINKS].sort());
      expect(hrefs).toHaveLength(SPEC_LINKS.length + FIXED_LINKS.length);
      expect(await nav(page).locator('a[aria-current="page"]').allTextContents()).toEqual(['Voucher codes']);
      expect(((await nav(page).getByText('Trade data', { exact: true }).boundingBox())?.width ?? 0) > 20).toBe(true);
      await audit('grouped sidebar, 1280 px');
      expect(await violationsIn(page, '#sidebar')).toEqual([]);

      // Closed: each heading is a thin line, its name read out only; the lists keep their names.
      await nav(page).getByRole('button', { name: 'Menu' }).click();
      await expect
        .poll(async () => (await nav(page).getByText('Trade data', { exact: true }).boundingBox())?.width ?? 0)
        .toBeLessThanOrEqual(1);
      expect(
        await nav(page)
          .getByRole('list', { name: 'Trade data' })
          .evaluate((list) => getComputedStyle(list.parentElement!).borderTopWidth),
      ).toBe('1px');
      expect(await violationsIn(page, '#sidebar')).toEqual([]);
    },
  );

  journey(
    'SIDEBAR-03 SIDEBAR-06 a data operator sees only the headings of the entries open to them, in their places',
    async ({ page, signIn, audit }) => {
      await signIn(OPERATOR);
      await page.goto('/create-hs-code-management/list');
      await page.getByRole('heading', { name: 'HS Codes', level: 1 }).waitFor();
      await expect
        .poll(async () => (await sections(page)).map(({ heading, labels }) => ({ heading, labels })))
        .toEqual([
          { heading: 'Administration', labels: ['Master data'] },
          {
            heading: 'Trade data',
            labels: ['Data uploads', 'Data columns', 'Available countries', 'HS codes', 'Related products'],
          },
        ]);
      expectSpecLinks((await sections(page)).flatMap((section) => section.hrefs));
      expect(await nav(page).locator('a[aria-current="page"]').allTextContents()).toEqual(['HS codes']);
      await nav(page).getByRole('link', { name: 'Master data' }).click();
      await waitForPath(page, /^\/masters\//);
      await expect.poll(() => nav(page).locator('a[aria-current="page"]').allTextContents()).toEqual(['Master data']);
      await audit('grouped sidebar of a data operator, 1280 px');
      // The registry is not theirs to open: the account menu does not offer it.
      await page.getByRole('button', { name: /, account menu$/ }).click();
      const menu = page.getByRole('region', { name: /, account menu$/ });
      await menu.getByRole('button', { name: 'Logout' }).waitFor();
      expect(await menu.getByRole('link', { name: 'Module Registry' }).count()).toBe(0);
    },
  );

  journey(
    'the Module Registry is reached by clicking, from the account menu and from Go anywhere',
    async ({ page, signIn, audit }) => {
      await signIn(ADMIN);
      await page.goto(VOUCHERS);
      await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
      await page.getByRole('button', { name: /, account menu$/ }).click();
      const menu = page.getByRole('region', { name: /, account menu$/ });
      await menu.getByRole('link', { name: 'Module Registry' }).waitFor();
      await audit('account menu with the Module Registry');
      expect(await violationsIn(page, '.account-menu')).toEqual([]);
      await menu.getByRole('link', { name: 'Module Registry' }).click();
      await waitForPath(page, '/developers/modules');
      await page.getByRole('heading', { name: 'Modules', level: 1 }).waitFor();
      expect(await menu.count()).toBe(0);

      await page.goto(VOUCHERS);
      await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
      await page.keyboard.press('Control+k');
      const dialog = page.getByRole('dialog', { name: 'Go anywhere' });
      await dialog.getByRole('combobox', { name: 'Screen or record' }).pressSequentially('registry', { delay: 40 });
      await dialog.getByRole('option', { name: /Module Registry/ }).click();
      await waitForPath(page, '/developers/modules');
      await page.getByRole('heading', { name: 'Modules', level: 1 }).waitFor();
    },
  );

  journey(
    'at 390 px the drawer shows the headings and icons, and an entry opens its screen',
    async ({ page, signIn, audit }) => {
      await signIn(ADMIN);
      await page.goto(VOUCHERS);
      await page.getByRole('heading', { name: 'Vouchers', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Main menu' }).click();
      await nav(page).waitFor();
      await expect
        .poll(async () => (await sections(page)).map(({ heading, labels }) => ({ heading, labels })))
        .toEqual(ADMIN_SECTIONS);
      expect(((await nav(page).getByText('Company directory', { exact: true }).boundingBox())?.width ?? 0) > 20).toBe(
        true,
      );
      const drawings = await nav(page)
        .locator('.sidebar-link svg path')
        .evaluateAll((paths) => paths.map((path) => path.getAttribute('d')));
      expect(new Set(drawings).size).toBe(SPEC_LINKS.length + FIXED_LINKS.length + 1);
      expect(await nav(page).evaluate((drawer) => drawer.scrollWidth <= drawer.clientWidth)).toBe(true);
      await audit('grouped sidebar drawer, 390 px');
      expect(await violationsIn(page, '#sidebar')).toEqual([]);
      await nav(page).getByRole('link', { name: 'Available countries' }).click();
      await waitForPath(page, '/country-management/list');
      await nav(page).waitFor({ state: 'hidden' });
    },
    PHONE,
  );

  for (const [what, item, opened] of [
    ["a record's detail", 'View', /^\/voucher-management\/vouchers\/\d+$/],
    ["a record's edit form", 'Edit', /^\/voucher-management\/vouchers\/\d+\/edit$/],
  ] as const) {
    journey(
      `ROUTE-07 the list's scroll position is restored when the browser goes back to it from ${what}`,
      async ({ page, signIn }) => {
        const tokens = await signIn(ADMIN);
        await fillVoucherPage(new Api(tokens));
        await page.goto(LONG_VOUCHER_PAGE);
        await page.getByRole('table').waitFor();
        await expect.poll(() => page.getByRole('row').count()).toBeGreaterThan(50);
        expect(
          await page.evaluate(() => document.scrollingElement!.scrollHeight - window.innerHeight),
          'the list is taller than the window',
        ).toBeGreaterThan(600);
        await page.evaluate(() => window.scrollTo(0, 600));
        await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(600);
        await openFromRowInView(page, item);
        await waitForPath(page, opened);
        await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
        await page.goBack();
        await waitForPath(page, VOUCHERS);
        await page.getByRole('table').waitFor();
        await expect.poll(() => page.evaluate(() => Math.round(window.scrollY)), { timeout: 5_000 }).toBe(600);
        expect(pathOf(page)).toBe(VOUCHERS);
      },
    );
  }

  journey(
    'ROUTE-07 the scroll position is also restored when going back from an edit form with unsaved changes, after "Leave"',
    async ({ page, signIn }) => {
      const tokens = await signIn(ADMIN);
      await fillVoucherPage(new Api(tokens));
      await page.goto(LONG_VOUCHER_PAGE);
      await page.getByRole('table').waitFor();
      await expect.poll(() => page.getByRole('row').count()).toBeGreaterThan(50);
      await page.evaluate(() => window.scrollTo(0, 600));
      await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(600);
      await openFromRowInView(page, 'Edit');
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
    },
  );
});
