import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN } from '../support/accounts.ts';
import { Api, unique, uniqueLetters } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { row } from '../support/ui.ts';

useBrowser();

const WIDTHS = [
  ['1280 px', { width: 1280, height: 800 }],
  ['390 px', { width: 390, height: 844 }],
] as const;

/** At each width: the check, axe, and no sideways scroll of the page itself. */
async function atBothWidths(
  page: Page,
  audit: (screen: string) => Promise<void>,
  screen: string,
  check: () => Promise<void>,
): Promise<void> {
  for (const [name, size] of WIDTHS) {
    await page.setViewportSize(size);
    await check();
    await audit(`${screen} at ${name}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${screen} at ${name}`).toBeLessThanOrEqual(
      size.width,
    );
  }
}

describe('values in words', () => {
  journey(
    "a voucher's discount reads by its type, money with ₹ and percentages with %",
    async ({ page, signIn, audit }) => {
      const admin = await Api.login(ADMIN.email, ADMIN.password);
      const prefix = `W${uniqueLetters(6).toUpperCase()}`;
      const dates = { valid_from: '2026-01-01', valid_to: '2030-12-31' };
      await admin.post('vouchers', { code: `${prefix}FLAT`, discount_type: 'flat', discount_value: 990, ...dates });
      await admin.post('vouchers', { code: `${prefix}PCT`, discount_type: 'percent', discount_value: 13, ...dates });

      await signIn(ADMIN);
      await page.goto(`/voucher-management/vouchers?q=${prefix}`);
      await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
      // A row on a desktop, a card on a phone: either way the code's row carries the discount as people write it.
      const line = (code: string) => row(page, code);
      await atBothWidths(page, audit, 'vouchers with money and percentages', async () => {
        await expect.poll(() => line(`${prefix}FLAT`).textContent()).toContain('₹990.00');
        await expect.poll(() => line(`${prefix}PCT`).textContent()).toContain('13%');
        expect(await line(`${prefix}PCT`).textContent()).not.toContain('₹');
      });
    },
  );

  journey(
    "a subscriber's history after a top-up says what happened, by titles and not field names",
    async ({ page, signIn, audit }) => {
      const admin = await Api.login(ADMIN.email, ADMIN.password);
      const countries = (await admin.get<{ data: { value: number }[] }>('countries/options')).data;
      const name = `Words Journey ${uniqueLetters()}`;
      const { data: subscriber } = await admin.post<{ data: { id: number } }>('subscribers', {
        name,
        email: `${unique('words').toLowerCase()}@example.com`,
        mobile: '9876512345',
        country_id: countries[0]!.value,
      });
      await admin.post(`subscribers/${subscriber.id}/top-ups`, {
        points: 250,
        amount: 990,
        payment_reference: 'NEFT-WORDS-1',
        idempotency_key: unique('words-top-up'),
      });

      await signIn(ADMIN);
      await page.goto(`/subscriber-management/subscribers/${subscriber.id}/details`);
      await page.getByRole('heading', { name: `Subscriber ${name}` }).waitFor();
      await page.getByRole('button', { name: 'History' }).click();
      const history = page.locator('.history-list');
      const topUp = history.getByRole('listitem').filter({ hasText: 'Points topped up' });
      await atBothWidths(page, audit, 'subscriber history after a top-up', async () => {
        await expect
          .poll(() => topUp.textContent())
          .toContain('250 points added for ₹990.00, payment reference NEFT-WORDS-1.');
        const text = (await history.textContent()) ?? '';
        expect(text).not.toContain('No field changed');
        expect(text).not.toMatch(/\b\w+_\w+\b|\blabel\b/i);
      });
    },
  );

  journey(
    "the report charts' legends name a month and its values before anyone hovers",
    async ({ page, signIn, audit }) => {
      await signIn(ADMIN);
      await page.goto('/admin-reporting-management/reports');
      await page.getByRole('heading', { name: 'Admin reporting' }).waitFor();
      const chart = page.getByRole('figure').first();
      await chart.waitFor();
      const legendValues = chart.locator('.u-legend .u-series .u-value');
      await atBothWidths(page, audit, 'admin reporting legends', async () => {
        await expect.poll(() => legendValues.first().textContent()).toMatch(/^[A-Z][a-z]{2} \d{4}$/);
        expect(await legendValues.allTextContents()).not.toContain('—');
      });
    },
  );
});
