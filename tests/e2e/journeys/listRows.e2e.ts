import type { Locator, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { ADMIN } from '../support/accounts.ts';
import { Api } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { pathOf, waitForPath } from '../support/ui.ts';

useBrowser();

const VOUCHERS = '/voucher-management/vouchers';
const SUBSCRIBERS = '/subscriber-management/subscribers';
const USERS = '/user-management/users';
const PHONE = { width: 390, height: 844 };
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** At least a page of 20 vouchers, whatever other journeys did to the demo's 50. */
async function fillVoucherPage(api: Api): Promise<void> {
  const { meta } = await api.get<{ meta: { total: number } }>('vouchers?_page=1&_page_size=1');
  for (let index = meta.total; index < 20; index += 1) {
    await api.post('vouchers', {
      code: `ROWS${String(index).padStart(3, '0')}`,
      discount_type: 'flat',
      discount_value: 10,
      valid_from: day(0),
      valid_to: day(5),
    });
  }
}

const bodyRows = (page: Page) => page.locator('table.resource-table > tbody > tr');

/** Opens a list and waits for a full page of its rows. */
async function openList(page: Page, path: string, atLeast = 1): Promise<void> {
  await page.goto(path);
  await bodyRows(page)
    .nth(atLeast - 1)
    .waitFor();
}

/** How many rows lie wholly inside the window, the page not scrolled. */
function rowsInView(page: Page): Promise<number> {
  return bodyRows(page).evaluateAll(
    (rows) =>
      rows.filter((row) => {
        const box = row.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      }).length,
  );
}

/** The header cell of a column, inside the window and not left out to fit. */
async function expectColumnInView(page: Page, title: string): Promise<void> {
  const header: Locator = page.getByRole('columnheader', { name: title, exact: true });
  const box = await header.boundingBox();
  expect(box, title).not.toBeNull();
  expect(box!.x + box!.width, title).toBeLessThanOrEqual(1280);
}

const pageScrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe('list rows', () => {
  journey(
    'at 1280x800 a list shows 12 or more one-line rows, its key columns whole, and a row opens by click or from the keyboard',
    async ({ page, signIn, audit }) => {
      await signIn(ADMIN);
      await fillVoucherPage(await Api.login(ADMIN.email, ADMIN.password));

      await openList(page, VOUCHERS, 20);
      expect(await rowsInView(page)).toBeGreaterThanOrEqual(12);
      const heights = await bodyRows(page).evaluateAll((rows) => rows.map((row) => row.getBoundingClientRect().height));
      expect(Math.max(...heights)).toBeLessThanOrEqual(42);
      expect(await pageScrollWidth(page)).toBeLessThanOrEqual(1280);
      await audit('vouchers list, compact rows');

      // A click on a row, away from its link and controls, opens the record the link names.
      const second = bodyRows(page).nth(1);
      const secondPath = await second.getByRole('link').getAttribute('href');
      await second.locator('td').nth(2).click();
      await waitForPath(page, secondPath!);

      // The body is one Tab stop: from the first row, Tab goes through that row's own controls and then leaves the table.
      await openList(page, VOUCHERS, 20);
      const thirdPath = await bodyRows(page).nth(2).getByRole('link').getAttribute('href');
      await page.getByRole('searchbox').focus();
      const focusedRow = () =>
        page.evaluate(() =>
          document.activeElement?.tagName === 'TR'
            ? [...document.activeElement.parentElement!.children].indexOf(document.activeElement)
            : -1,
        );
      for (let tabs = 0; tabs < 30 && (await focusedRow()) !== 0; tabs += 1) await page.keyboard.press('Tab');
      expect(await focusedRow()).toBe(0);
      let inRow = 0;
      while (await page.evaluate(() => document.activeElement?.closest('tbody') !== null)) {
        await page.keyboard.press('Tab');
        inRow += 1;
      }
      expect(inRow).toBeLessThanOrEqual(5);
      await bodyRows(page).first().focus();
      await page.keyboard.press('j');
      await page.keyboard.press('j');
      expect(await focusedRow()).toBe(2);
      await audit('vouchers list, a row focused');
      await page.keyboard.press('Enter');
      await waitForPath(page, thirdPath!);

      // Subscribers: Status, Points and Active in view before company and e-mail.
      await openList(page, SUBSCRIBERS, 20);
      expect(await rowsInView(page)).toBeGreaterThanOrEqual(12);
      for (const title of ['Name', 'Status', 'Points balance', 'Active']) await expectColumnInView(page, title);
      expect(await pageScrollWidth(page)).toBeLessThanOrEqual(1280);
      await page
        .getByRole('button', { name: /^Actions for / })
        .first()
        .click();
      await page.getByRole('menu').getByRole('menuitem', { name: 'Details' }).waitFor();
      await audit('subscribers list, a row actions menu open');
      await page.keyboard.press('Escape');

      // Users: the role is never cut.
      await openList(page, USERS, 4);
      await expectColumnInView(page, 'Role');
      const roleIndex = await page
        .getByRole('columnheader')
        .evaluateAll((headers) => headers.findIndex((header) => header.textContent?.startsWith('Role')));
      const cut = await bodyRows(page).evaluateAll(
        (rows, index) =>
          rows.flatMap((row) => {
            const cell = row.children[index] as HTMLElement;
            const text = cell.querySelector<HTMLElement>('.cell-text') ?? cell;
            return cell.scrollWidth > cell.clientWidth || text.scrollWidth > text.clientWidth ? [cell.textContent] : [];
          }),
        roleIndex,
      );
      expect(cut).toEqual([]);
    },
  );

  journey(
    'at 390x844 the first record shows on the first screen as a card, nothing scrolls sideways, and a tap on a card opens it',
    async ({ page, signIn, audit }) => {
      await signIn(ADMIN);
      for (const path of [SUBSCRIBERS, VOUCHERS]) {
        await openList(page, path, 5);
        const first = bodyRows(page).first();
        const box = await first.boundingBox();
        expect(box!.y + box!.height, path).toBeLessThanOrEqual(PHONE.height);
        expect(await pageScrollWidth(page), path).toBeLessThanOrEqual(PHONE.width);
        // A card: the record's label as its link, a muted line of values, its checkbox and menu.
        expect(await first.getByRole('link').count()).toBe(1);
        expect(await first.locator('.row-card__values').isVisible()).toBe(true);
        await first.getByRole('checkbox').waitFor();
        await first.getByRole('button', { name: /^Actions for / }).waitFor();
        await audit(`${path} as cards at 390 px`);
      }

      const second = bodyRows(page).nth(1);
      const path = await second.getByRole('link').getAttribute('href');
      await second.locator('.row-card__values').tap();
      await waitForPath(page, path!);
      expect(pathOf(page)).toBe(path);
    },
    { viewport: PHONE, hasTouch: true },
  );
});
