import { describe, expect } from 'vitest';
import { ADMIN } from '../support/accounts.ts';
import { Api, unique, uniqueLetters } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { chooseRelated, field, recordApiCalls, rowAction, toast, waitForPath } from '../support/ui.ts';
import type { Page } from 'playwright-core';

useBrowser();

const LIST = '/subscriber-management/subscribers';
const digits = (text: string | null) => Number((text ?? '').replace(/[^\d-]/g, ''));

/** The number shown under "Points balance" on the subscriber's details. */
async function shownBalance(page: Page): Promise<number> {
  const stat = page.locator('.stat').filter({ has: page.getByText('Points balance', { exact: true }) });
  return digits(await stat.locator('dd').textContent());
}

describe('subscriber', () => {
  journey(
    'HTTP-04 a subscriber is created with APP-SOURCE: ADMIN, then gets a subscription and a top-up, and the points balance adds up',
    async ({ page, signIn, audit }) => {
      const admin = await Api.login(ADMIN.email, ADMIN.password);
      const plans = (
        await admin.get<{ data: { id: number; name: string; points: number; price: number }[] }>('plans?_page_size=100')
      ).data;
      const starter = plans.find((plan) => plan.name === 'Starter') ?? plans[0]!;
      // validString: letters and spaces only.
      const name = `Journey Subscriber ${uniqueLetters()}`;
      const email = `${unique('e2e').toLowerCase()}@example.com`;

      await signIn(ADMIN);
      const calls = recordApiCalls(page);
      await page.goto(LIST);
      await page.getByRole('heading', { name: 'Subscribers' }).waitFor();
      await page.getByRole('table').waitFor();
      await audit('subscriber list');

      await page.getByRole('link', { name: 'Add Subscriber' }).click();
      await waitForPath(page, `${LIST}/add`);
      await field(page, 'Name').fill(name);
      await field(page, 'Email').fill(email);
      await field(page, 'Mobile').fill('9876501234');
      await field(page, 'Company name').fill('End To End Exports');
      await chooseRelated(page, 'Country', 'India');
      await audit('subscriber form');
      const created = page.waitForResponse(
        (response) => response.url().endsWith('/api/v1/subscribers') && response.request().method() === 'POST',
      );
      await page.getByRole('button', { name: 'Create subscriber' }).click();
      expect((await created).status()).toBe(201);
      await waitForPath(page, LIST);
      await toast(page, /created/i)
        .first()
        .waitFor();

      // HTTP-04: the create-subscriber call says ADMIN, every other API call ADMIN_APP.
      const createCall = calls.filter((call) => call.method === 'POST' && call.path === 'subscribers');
      expect(createCall).toHaveLength(1);
      expect(createCall[0]!.headers['app-source']).toBe('ADMIN');
      const others = calls.filter((call) => call !== createCall[0]);
      expect(others.length).toBeGreaterThan(2);
      expect(
        others
          .filter((call) => call.headers['app-source'] !== 'ADMIN_APP')
          .map((call) => `${call.method} ${call.path}`),
      ).toEqual([]);

      const subscriber = (
        await admin.get<{ data: { id: number; email: string; points_balance: number }[] }>(
          `subscribers?q=${encodeURIComponent(email)}`,
        )
      ).data.find((row) => row.email === email);
      expect(subscriber).toBeDefined();
      await page.getByRole('searchbox', { name: /search subscribers/i }).fill(email);
      await rowAction(page, name, 'Details');
      await waitForPath(page, new RegExp(`^${LIST}/${subscriber!.id}(/|$)`));
      await page.getByRole('heading', { name: `Subscriber ${name}` }).waitFor();
      await expect.poll(() => shownBalance(page)).toBe(0);
      await audit('subscriber details');

      // A subscription credits the plan's points.
      await page.getByRole('button', { name: 'Add subscription' }).click();
      const subscriptionDialog = page.getByRole('dialog', { name: 'Add subscription' });
      await subscriptionDialog.waitFor();
      await chooseRelated(page, 'Plan', starter.name);
      await field(page, 'Amount paid').fill(String(starter.price));
      await audit('add subscription dialog');
      await subscriptionDialog.getByRole('button', { name: 'Add subscription' }).click();
      await subscriptionDialog.waitFor({ state: 'detached' });
      await expect.poll(() => shownBalance(page), { timeout: 5_000 }).toBe(starter.points);

      // A top-up adds its points on top.
      await page.getByRole('button', { name: 'Add top-up' }).click();
      const topUpDialog = page.getByRole('dialog', { name: 'Add top-up' });
      await topUpDialog.waitFor();
      await field(page, 'Points').fill('250');
      await field(page, 'Amount paid').fill('999');
      await field(page, 'Note').fill('End-to-end top-up');
      await audit('add top-up dialog');
      await topUpDialog.getByRole('button', { name: 'Credit points' }).click();
      await topUpDialog.waitFor({ state: 'detached' });
      await expect.poll(() => shownBalance(page), { timeout: 5_000 }).toBe(starter.points + 250);

      // The ledger shows both movements, newest first, and the API agrees.
      const ledgerRows = page.getByRole('region', { name: 'Points ledger' }).getByRole('row');
      await expect.poll(() => ledgerRows.count()).toBe(3);
      expect(digits(await ledgerRows.nth(1).getByRole('cell').nth(3).textContent())).toBe(starter.points + 250);
      expect(await ledgerRows.nth(1).textContent()).toContain('End-to-end top-up');
      const summary = (await admin.get<{ data: { points_balance: number } }>(`subscribers/${subscriber!.id}/summary`))
        .data;
      expect(summary.points_balance).toBe(starter.points + 250);
      const subscriptionCall = calls.find(
        (call) => call.method === 'POST' && call.path === `subscribers/${subscriber!.id}/subscriptions`,
      );
      expect(subscriptionCall?.headers['app-source']).toBe('ADMIN_APP');
    },
    { timeout: 120_000 },
  );

  journey('the subscriber details show the current plan by its name', async ({ page, signIn }) => {
    const admin = await Api.login(ADMIN.email, ADMIN.password);
    const plans = (await admin.get<{ data: { id: number; name: string; price: number }[] }>('plans?_page_size=100'))
      .data;
    const plan = plans.find((candidate) => candidate.name === 'Professional') ?? plans[0]!;
    const countries = (await admin.get<{ data: { value: number; label: string }[] }>('countries/options')).data;
    const { data: subscriber } = await admin.post<{ data: { id: number } }>('subscribers', {
      name: `Plan Check ${uniqueLetters()}`,
      email: `${unique('plan').toLowerCase()}@example.com`,
      mobile: '9876504321',
      country_id: countries[0]!.value,
    });
    await admin.post(`subscribers/${subscriber.id}/subscriptions`, {
      plan_id: plan.id,
      starts_on: new Date().toISOString().slice(0, 10),
      amount_paid: plan.price,
    });
    await signIn(ADMIN);
    await page.goto(`${LIST}/${subscriber.id}/details`);
    const standing = page.locator('.stat').filter({ hasText: 'Subscription' }).locator('dd');
    await standing.waitFor();
    await expect
      .poll(async () => (await standing.textContent())?.trim())
      .toMatch(new RegExp(`^Active · ${plan.name} until `));
  });
});
