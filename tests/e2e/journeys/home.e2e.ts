import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { ADMIN, OPERATOR, SALES, VIEWER } from '../support/accounts.ts';
import { Api, unique } from '../support/api.ts';
import { API_URL } from '../support/env.ts';
import { journey, useBrowser, type Account } from '../support/journey.ts';
import { auditBothWidths, loginThroughForm, pathOf, waitForPath } from '../support/ui.ts';
import { sendFileOverHttp } from '../../../server/modules/uploads/testing/tusRequests.ts';

useBrowser();

const ALL_CARDS = [
  'Expiring subscriptions',
  'Open trials',
  'New subscribers',
  'Revenue',
  'Upload queue',
  'Failed uploads',
  'Last upload per country and direction',
  'Recent changes',
];
const HOME_CARDS: Array<{ account: Account & { role: string }; cards: string[] }> = [
  { account: ADMIN, cards: ALL_CARDS },
  { account: SALES, cards: ['Expiring subscriptions', 'Open trials', 'New subscribers'] },
  { account: OPERATOR, cards: ['Upload queue', 'Failed uploads', 'Last upload per country and direction'] },
  { account: VIEWER, cards: ALL_CARDS },
];
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 800 },
];

/** One upload waiting for its file and one refused for its header, so the operator's cards have something to count. */
async function uploadsToCount(): Promise<void> {
  const operator = await Api.login(OPERATOR.email, OPERATOR.password);
  const [kenya] = (await operator.get<{ data: { value: number }[] }>('countries/options?q=Kenya')).data;
  const ticket = (period: string, size: number) =>
    operator.post<{ data: { upload_url: string; complete_path: string } }>('uploads', {
      country_id: kenya!.value,
      trade_direction: 'import',
      period,
      file_name: `${unique('home-').toLowerCase()}.csv`,
      size,
    });
  await ticket('2024-01', 100);
  const refused = 'not,the,columns\n1,2,3\n';
  const failing = await ticket('2024-02', Buffer.byteLength(refused));
  await sendFileOverHttp(API_URL, failing.data.upload_url, refused);
  // The header is checked on completion: the answer refuses it and the upload is marked failed.
  await operator.raw('POST', failing.data.complete_path, {});
}

/** The number a figure's link starts with: "1,234 subscribers…", "₹1,23,456.50 received…". */
function figureValue(text: string): number {
  const digits = /^[^\d]*([\d,]+(?:\.\d+)?)/.exec(text.trim())?.[1];
  if (!digits) throw new Error(`no figure in "${text}"`);
  return Number(digits.replaceAll(',', ''));
}

/** What the list on screen counts: its pagination's total, or 0 when it says nothing matches. */
async function listedTotal(page: Page): Promise<number> {
  const range = page.locator('main .pagination__range');
  const none = page.locator('main .screen-state', { hasText: /^No .* (match|yet)/ });
  await range.or(none).first().waitFor();
  if (await none.count()) return 0;
  return Number(/of (\d+)/.exec((await range.textContent()) ?? '')?.[1]);
}

async function backHome(page: Page): Promise<void> {
  await page.goBack();
  await waitForPath(page, '/home');
  await page.locator('main article.home-card').first().waitFor();
}

/** Opens every figure's link at this width and checks the list it opens shows what the figure says. */
async function eachFigureOpensItsList(page: Page): Promise<void> {
  const links = page.locator('main .home-figure a');
  const count = await links.count();
  expect(count).toBeGreaterThan(0);
  for (let index = 0; index < count; index += 1) {
    const link = links.nth(index);
    const [text, href] = [(await link.textContent()) ?? '', (await link.getAttribute('href'))!];
    const target = new URL(href, 'http://console.invalid');
    await link.click();
    await waitForPath(page, target.pathname);
    expect(new URL(page.url()).search, href).toBe(target.search);
    if (target.pathname === '/admin-reporting-management/reports') {
      // The report over that month: its revenue chart draws the figure.
      await page.getByRole('heading', { name: 'Admin reporting' }).waitFor();
      await page.getByText('Revenue from subscriptions and top-ups').first().waitFor();
    } else {
      expect(await listedTotal(page), `${text} (${href})`).toBe(figureValue(text));
    }
    await backHome(page);
  }
}

/** The first thing each listing card names opens its list, and so does the card's link to the whole list. */
async function eachListingOpensItsList(page: Page): Promise<void> {
  for (const card of await page.locator('main article.home-card:has(.home-items)').all()) {
    const first = card.locator('.home-items a').first();
    const href = (await first.getAttribute('href'))!;
    await first.click();
    await waitForPath(page, new URL(href, 'http://console.invalid').pathname);
    expect(await listedTotal(page), href).toBeGreaterThan(0);
    await backHome(page);
  }
}

describe('a home screen per role', () => {
  for (const { account, cards } of HOME_CARDS) {
    journey(
      `ROUTE-15 ${account.role} signs in onto their home screen, and each figure opens the list it counts at 1280 and 390 px`,
      async ({ page, audit }) => {
        if (account === OPERATOR) await uploadsToCount();
        await page.goto('/auth/login');
        await loginThroughForm(page, account.email, account.password);
        await waitForPath(page, '/home');
        await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
        await page.locator('main article.home-card').first().waitFor();
        expect(await page.locator('main article.home-card h2').allTextContents()).toEqual(cards);
        // The tab says which screen it is.
        expect(await page.title()).toBe('Home · Trade Data Admin');
        const nav = page.getByRole('navigation', { name: 'Main' });
        expect(await nav.getByRole('link', { name: 'Home', exact: true }).getAttribute('aria-current')).toBe('page');
        await auditBothWidths(page, audit, `${account.role}'s home screen`);
        for (const size of WIDTHS) {
          await page.setViewportSize(size);
          await eachFigureOpensItsList(page);
        }
        await eachListingOpensItsList(page);
        expect(pathOf(page)).toBe('/home');
      },
      { timeout: 180_000 },
    );
  }
});
