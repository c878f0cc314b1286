import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN, SALES } from '../support/accounts.ts';
import { Api, unique, uniqueLetters } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { auditBothWidths } from '../support/ui.ts';

useBrowser();

const PHONE = { width: 390, height: 844 };

interface Subscriber {
  id: number;
  name: string;
}

/** Marks `window.offeredSale` once a sale or top-up button shows, however briefly, from the page's first paint. */
async function watchForSaleControls(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const flag = window as unknown as { offeredSale?: boolean };
    new MutationObserver(() => {
      if (
        [...document.querySelectorAll('button')].some((button) =>
          /^Add (subscription|top-up)$/.test(button.textContent?.trim() ?? ''),
        )
      )
        flag.offeredSale = true;
    }).observe(document, { childList: true, subtree: true });
  });
}

const sideways = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);

describe('subscriber scope', () => {
  journey(
    'an executive on a subscriber not theirs is never offered a sale or a top-up, and hears of it once',
    async ({ page, signIn, audit }) => {
      const admin = await Api.login(ADMIN.email, ADMIN.password);
      const sales = await Api.login(SALES.email, SALES.password);
      const mine = new Set(
        (await sales.get<{ data: Subscriber[] }>('subscribers?_page_size=100')).data.map((row) => row.id),
      );
      const other = (await admin.get<{ data: Subscriber[] }>('subscribers?_page_size=50')).data.find(
        (row) => !mine.has(row.id),
      )!;
      await watchForSaleControls(page);
      await signIn(SALES);
      await page.goto(`/subscriber-management/subscribers/${other.id}/details`);
      await page.getByRole('heading', { level: 1, name: 'ERROR 404 PAGE NOT FOUND' }).waitFor();
      await expect.poll(() => page.locator('.toast-body').count()).toBeLessThanOrEqual(1);
      expect(await page.evaluate(() => (window as unknown as { offeredSale?: boolean }).offeredSale ?? false)).toBe(
        false,
      );
      // The server gives nothing to act on: the summary is refused, as each sale route is.
      expect((await sales.raw('GET', `subscribers/${other.id}/summary`)).status).toBe(404);
      expect(
        (
          await sales.raw('POST', `subscribers/${other.id}/top-ups`, {
            points: 1,
            amount: 0,
            idempotency_key: unique('scope-'),
          })
        ).status,
      ).toBe(404);
      await audit('subscriber not theirs');
    },
  );

  journey(
    'on their own subscriber at 390 px the executive is offered both, the page has no sideways scroll and the top-up dialog fits the screen',
    async ({ page, signIn, audit }) => {
      const sales = await Api.login(SALES.email, SALES.password);
      const countries = (await sales.get<{ data: { value: number }[] }>('countries/options')).data;
      const name = `Scope Journey ${uniqueLetters()}`;
      const { data: subscriber } = await sales.post<{ data: { id: number } }>('subscribers', {
        name,
        email: `${unique('scope').toLowerCase()}@example.com`,
        mobile: '9876509877',
        country_id: countries[0]!.value,
      });
      // Entries with long notes, so the points ledger is the page's widest table.
      for (const index of [1, 2, 3]) {
        await sales.post(`subscribers/${subscriber.id}/top-ups`, {
          points: 1250 * index,
          amount: 99999.5,
          note: `Festival season bulk top-up number ${index}`,
          idempotency_key: unique('scope-top-up-'),
        });
      }
      const summary = (
        await sales.get<{ data: { can: Record<string, boolean> } }>(`subscribers/${subscriber.id}/summary`)
      ).data;
      expect(summary.can).toEqual({ add_subscription: true, cancel_subscription: true, add_top_up: true });

      await signIn(SALES);
      await page.goto(`/subscriber-management/subscribers/${subscriber.id}/details`);
      await page.getByRole('heading', { level: 1, name: `Subscriber ${name}` }).waitFor();
      await page.getByRole('region', { name: 'Ledger table' }).getByRole('row').nth(3).waitFor();
      await page.getByRole('button', { name: 'Add subscription' }).waitFor();
      expect(await sideways(page)).toBeLessThanOrEqual(0);

      await page.getByRole('button', { name: 'Add top-up' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add top-up' });
      await dialog.waitFor();
      await expect
        .poll(async () => {
          const box = await dialog.boundingBox();
          return (
            box !== null &&
            box.x >= 0 &&
            box.y >= 0 &&
            box.x + box.width <= PHONE.width &&
            box.y + box.height <= PHONE.height
          );
        })
        .toBe(true);
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      await audit('add top-up dialog (390 px)');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      await auditBothWidths(page, audit, "an executive's own subscriber");
    },
    { viewport: PHONE },
  );
});
