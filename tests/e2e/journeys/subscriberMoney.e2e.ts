import { describe, expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { formatMoney } from '../../../src/screens/shared/formatValue.ts';
import { ADMIN } from '../support/accounts.ts';
import { Api, unique, uniqueLetters } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { auditBothWidths, chooseRelated, field } from '../support/ui.ts';

useBrowser();

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

interface Quote {
  list_price: number;
  discount: number;
  amount_due: number;
}

/** A fresh subscriber, a priced active plan long enough not to be expiring at once, and a ₹500 voucher for that plan, made through the API. */
async function setUp(admin: Api) {
  const plans = (
    await admin.get<{ data: { id: number; name: string; price: number; validity_days: number; is_active: boolean }[] }>(
      'plans?_page_size=100',
    )
  ).data;
  const plan = plans.find((candidate) => candidate.is_active && candidate.price > 0 && candidate.validity_days > 60)!;
  const countries = (await admin.get<{ data: { value: number }[] }>('countries/options')).data;
  const name = `Money Journey ${uniqueLetters()}`;
  const { data: subscriber } = await admin.post<{ data: { id: number } }>('subscribers', {
    name,
    email: `${unique('money').toLowerCase()}@example.com`,
    mobile: '9876509876',
    country_id: countries[0]!.value,
  });
  const voucherCode = unique('JV').slice(0, 20);
  await admin.post('vouchers', {
    code: voucherCode,
    description: 'Journey voucher',
    discount_type: 'flat',
    discount_value: 500,
    valid_from: '2026-01-01',
    valid_to: '2030-12-31',
    usage_limit: 5,
    plan_id: plan.id,
  });
  const quote = (
    await admin.get<{ data: Quote }>(
      `subscribers/${subscriber.id}/subscription-quote?plan_id=${plan.id}&voucher_code=${voucherCode}&is_trial=false`,
    )
  ).data;
  return { plan, subscriber: { id: subscriber.id, name }, voucherCode, quote };
}

/** The dialog lies wholly inside a 390x844 screen, and its last button can be reached by scrolling inside it. */
async function expectFitsPhone(page: Page, dialog: Locator, lastButton: Locator): Promise<void> {
  await page.setViewportSize(PHONE);
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
  await lastButton.scrollIntoViewIfNeeded();
  expect(await lastButton.isVisible()).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await page.setViewportSize(DESKTOP);
}

const statText = (page: Page, term: string) =>
  page
    .locator('.stat')
    .filter({ has: page.getByText(term, { exact: true }) })
    .locator('dd');

describe('subscriber money', () => {
  journey(
    'a subscription sold with a voucher at the quoted price, and a top-up, show in the subscriptions, the payments and the status; the page and both dialogs fit a phone',
    async ({ page, signIn, audit }) => {
      const admin = await Api.login(ADMIN.email, ADMIN.password);
      const { plan, subscriber, voucherCode, quote } = await setUp(admin);
      expect(quote.discount).toBeGreaterThan(0);

      await signIn(ADMIN);
      await page.goto(`/subscriber-management/subscribers/${subscriber.id}/details`);
      await page.getByRole('heading', { name: `Subscriber ${subscriber.name}` }).waitFor();
      // A record's page names the tab after the record.
      expect(await page.title()).toBe(`Subscriber ${subscriber.name} · Trade Data Admin`);
      await expect
        .poll(async () => (await statText(page, 'Subscription').textContent())?.trim())
        .toBe('No subscription');

      await page.getByRole('button', { name: 'Add subscription' }).click();
      const subscriptionDialog = page.getByRole('dialog', { name: 'Add subscription' });
      await subscriptionDialog.waitFor();
      await chooseRelated(page, 'Plan', plan.name);
      const price = subscriptionDialog.getByRole('region', { name: 'Price' });
      await expect.poll(() => price.textContent()).toContain(formatMoney(quote.list_price));
      await field(page, 'Voucher code').pressSequentially(voucherCode.toLowerCase());
      expect(await field(page, 'Voucher code').inputValue()).toBe(voucherCode);
      await expect.poll(() => price.textContent()).toContain(`−${formatMoney(quote.discount)}`);
      expect(await price.textContent()).toContain(formatMoney(quote.amount_due));
      await field(page, 'Amount paid').fill(String(quote.amount_due));
      await field(page, 'Payment reference').fill('UTR-JOURNEY-1');
      await audit('add subscription dialog with a voucher');
      await expectFitsPhone(page, subscriptionDialog, subscriptionDialog.getByRole('button', { name: 'Cancel' }));
      await subscriptionDialog.getByRole('button', { name: 'Add subscription' }).click();
      await subscriptionDialog.waitFor({ state: 'detached' });

      await expect
        .poll(async () => (await statText(page, 'Subscription').textContent())?.trim())
        .toMatch(new RegExp(`^Active · ${plan.name} until `));
      await expect
        .poll(async () => (await statText(page, 'Paid in total').textContent())?.trim())
        .toBe(formatMoney(quote.amount_due));
      const sold = page
        .getByRole('region', { name: 'Subscriptions table', exact: true })
        .getByRole('row')
        .filter({ hasText: voucherCode });
      await expect.poll(() => sold.textContent()).toContain('Current');
      expect(await sold.textContent()).toContain('UTR-JOURNEY-1');
      const payments = page.getByRole('region', { name: 'Payments table', exact: true });
      await expect
        .poll(() => payments.getByRole('row').filter({ hasText: 'UTR-JOURNEY-1' }).textContent())
        .toContain(formatMoney(quote.amount_due));

      await page.getByRole('button', { name: 'Add top-up' }).click();
      const topUpDialog = page.getByRole('dialog', { name: 'Add top-up' });
      await topUpDialog.waitFor();
      await field(page, 'Points').fill('250');
      await field(page, 'Amount paid').fill('123456.5');
      await field(page, 'Payment reference').fill('NEFT-JOURNEY-2');
      await field(page, 'Note').fill('Journey top-up');
      await audit('add top-up dialog');
      await expectFitsPhone(page, topUpDialog, topUpDialog.getByRole('button', { name: 'Cancel' }));
      await topUpDialog.getByRole('button', { name: 'Credit points' }).click();
      await topUpDialog.waitFor({ state: 'detached' });
      const topUp = payments.getByRole('row').filter({ hasText: 'NEFT-JOURNEY-2' });
      await expect.poll(() => topUp.textContent()).toContain('₹1,23,456.50');
      expect(await topUp.textContent()).toContain('Top-up');
      await expect
        .poll(async () => (await statText(page, 'Paid in total').textContent())?.trim())
        .toBe(formatMoney(quote.amount_due + 123456.5));

      // The API agrees with what the page says.
      const summary = (
        await admin.get<{ data: { subscriber: { status: string; plan_id: number } } }>(
          `subscribers/${subscriber.id}/summary`,
        )
      ).data;
      expect(summary.subscriber).toMatchObject({ status: 'active', plan_id: plan.id });
      await auditBothWidths(page, audit, 'subscriber details with subscriptions and payments');
    },
    { timeout: 120_000 },
  );
});
