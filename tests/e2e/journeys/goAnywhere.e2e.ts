import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { ADMIN, SALES } from '../support/accounts.ts';
import { Api, uniqueLetters } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { loginThroughForm, waitForPath } from '../support/ui.ts';

useBrowser();

const PHONE = { viewport: { width: 390, height: 844 } };
type Subscriber = { id: number; name: string; email: string; mobile: string };
/** Typing at a normal pace: 40 ms a key. */
const TYPING = { delay: 40 };

/** Five subscribers with one name, told apart only by their e-mail and mobile. */
async function fiveNamedAlike(): Promise<Subscriber[]> {
  const admin = await Api.login(ADMIN.email, ADMIN.password);
  const [country] = (await admin.get<{ data: { id: number }[] }>('countries?_page_size=1')).data;
  const name = `Kavya ${uniqueLetters(8)}`;
  const digits = String(Math.floor(Math.random() * 1e8)).padStart(8, '0');
  const created: Subscriber[] = [];
  for (const n of [1, 2, 3, 4, 5]) {
    const subscriber = {
      name,
      email: `kavya.${digits}.${n}@example.org`,
      mobile: `9${digits}${n}`,
      country_id: country!.id,
    };
    created.push({
      ...subscriber,
      id: (await admin.post<{ data: { id: number } }>('subscribers', subscriber)).data.id,
    });
  }
  return created;
}

/** Holds the palette's chunk back until `release` is called: its code as slow to arrive as one likes. */
async function holdPaletteCode(page: Page): Promise<{ release: () => void; asked: Promise<void> }> {
  let release = () => {};
  let asked = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const wasAsked = new Promise<void>((resolve) => (asked = resolve));
  await page.route(/\/assets\/GoAnywhereDialog-[^/]+\.js$/, async (route) => {
    asked();
    await released;
    await route.continue();
  });
  return { release, asked: wasAsked };
}

/** The second lines of the records found in a group, in order. */
const secondLines = (page: Page, group: string) =>
  page
    .getByRole('dialog', { name: 'Go anywhere' })
    .getByRole('group', { name: group })
    .locator('.go-anywhere__details')
    .allTextContents();

describe('go anywhere', () => {
  journey(
    'Ctrl+K opens Go anywhere; a subscriber found by e-mail opens on its details, a screen by its name',
    async ({ page, signIn, audit }) => {
      const admin = await Api.login(ADMIN.email, ADMIN.password);
      const [subscriber] = (await admin.get<{ data: Subscriber[] }>('subscribers?_page_size=1&_sort=id&_order=desc'))
        .data;
      await signIn(ADMIN);
      await page.goto('/voucher-management/vouchers');
      await page.getByRole('heading', { name: 'Vouchers' }).waitFor();

      await page.keyboard.press('Control+k');
      const dialog = page.getByRole('dialog', { name: 'Go anywhere' });
      const box = dialog.getByRole('combobox', { name: 'Screen or record' });
      await expect.poll(() => box.evaluate((element) => element === document.activeElement)).toBe(true);
      await dialog
        .getByRole('option', { name: /Vouchers/ })
        .first()
        .waitFor();
      await audit('go anywhere: the screens');

      await box.fill(subscriber!.email);
      const found = dialog
        .getByRole('group', { name: 'Subscribers' })
        .getByRole('option', { name: new RegExp(subscriber!.name) });
      await found.waitFor();
      await audit('go anywhere: a record found');
      await box.press('Enter');
      await waitForPath(page, `/subscriber-management/subscribers/${subscriber!.id}/details`);
      await expect.poll(() => dialog.count()).toBe(0);
      await page.getByText(subscriber!.name).first().waitFor();

      await page.keyboard.press('Control+k');
      await box.fill('plans subscription');
      await dialog
        .getByRole('option', { name: /^Plans/ })
        .first()
        .waitFor();
      await box.press('Enter');
      await waitForPath(page, '/subscription-management/plans');

      // Escape closes it and gives focus back to what had it.
      const button = page.getByRole('button', { name: 'Go anywhere' });
      await button.click();
      await box.waitFor();
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
      await expect.poll(() => button.evaluate((element) => element === document.activeElement)).toBe(true);
    },
  );

  journey(
    'at 390 px the header button opens Go anywhere; an executive finds their own subscriber and not another',
    async ({ page, signIn, audit }) => {
      const admin = await Api.login(ADMIN.email, ADMIN.password);
      const sales = await Api.login(SALES.email, SALES.password);
      const [mine] = (await sales.get<{ data: Subscriber[] }>('subscribers?_page_size=1')).data;
      const everyone = (await admin.get<{ data: Subscriber[] }>('subscribers?_page_size=10')).data;
      const mineIds = new Set(
        (await sales.get<{ data: Subscriber[] }>('subscribers?_page_size=100')).data.map((row) => row.id),
      );
      const other = everyone.find((row) => !mineIds.has(row.id))!;
      await signIn(SALES);
      await page.goto('/subscriber-management/subscribers');
      await page.getByRole('heading', { name: 'Subscribers' }).waitFor();

      await page.getByRole('button', { name: 'Go anywhere' }).tap();
      const dialog = page.getByRole('dialog', { name: 'Go anywhere' });
      const box = dialog.getByRole('combobox', { name: 'Screen or record' });
      await box.fill(other.email);
      await dialog.getByText('No screen or record matches.').waitFor();
      await box.fill(mine!.email);
      const found = dialog.getByRole('option', { name: new RegExp(mine!.name) });
      await found.waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      const box390 = await dialog.boundingBox();
      expect(box390!.x).toBeGreaterThanOrEqual(0);
      expect(box390!.x + box390!.width).toBeLessThanOrEqual(390);
      await audit('go anywhere (390 px)');
      await found.tap();
      await waitForPath(page, `/subscriber-management/subscribers/${mine!.id}/details`);
    },
    { ...PHONE, hasTouch: true, isMobile: true },
  );

  journey(
    "right after sign-in lands, Ctrl+K and a mobile typed at 40 ms a key, while the palette's code is slow, find the subscriber",
    async ({ page, audit }) => {
      const alike = await fiveNamedAlike();
      const wanted = alike[2]!;
      const code = await holdPaletteCode(page);
      await page.goto('/auth/login');
      await loginThroughForm(page, ADMIN.email, ADMIN.password);
      // The signed-in layout's first paint: its header.
      await page.getByRole('button', { name: 'Go anywhere' }).waitFor();
      await page.keyboard.press('Control+k');
      await page.keyboard.type(wanted.mobile, TYPING);
      await code.asked;
      const dialog = page.getByRole('dialog', { name: 'Go anywhere' });
      expect(await dialog.count(), 'the palette waits for its code').toBe(0);
      code.release();

      const box = dialog.getByRole('combobox', { name: 'Screen or record' });
      await expect.poll(() => box.evaluate((element) => element === document.activeElement)).toBe(true);
      await expect.poll(() => box.inputValue()).toBe(wanted.mobile);
      expect(await box.evaluate((element: HTMLInputElement) => element.selectionStart)).toBe(wanted.mobile.length);
      const found = dialog.getByRole('group', { name: 'Subscribers' }).getByRole('option');
      await expect
        .poll(() => found.allTextContents())
        .toEqual([`${wanted.name}${wanted.email} · ${wanted.mobile}Subscribers`]);
      await audit('go anywhere: typed ahead, one subscriber found');
      await page.keyboard.press('Enter');
      await waitForPath(page, `/subscriber-management/subscribers/${wanted.id}/details`);

      // The code now there, the same pace straight after the shortcut, an Enter typed ahead with it.
      const other = alike[4]!;
      await page.keyboard.press('Control+k');
      await page.keyboard.type(`${other.mobile}`, TYPING);
      await page.keyboard.press('Enter');
      await waitForPath(page, `/subscriber-management/subscribers/${other.id}/details`);
      await expect.poll(() => dialog.count()).toBe(0);
    },
  );

  journey(
    'five subscribers named alike show five different second lines: their e-mail and mobile',
    async ({ page, signIn, audit }) => {
      const alike = await fiveNamedAlike();
      await signIn(ADMIN);
      await page.goto('/subscriber-management/subscribers');
      await page.getByRole('heading', { name: 'Subscribers' }).waitFor();
      await page.keyboard.press('Control+k');
      await page.keyboard.type(alike[0]!.name, TYPING);
      const lines = alike.map((subscriber) => `${subscriber.email} · ${subscriber.mobile}`);
      await expect.poll(async () => (await secondLines(page, 'Subscribers')).sort()).toEqual([...lines].sort());
      await audit('go anywhere: five subscribers named alike');
    },
  );

  journey(
    'at 390 px, typed at 40 ms a key as the palette opens, five alike subscribers are told apart by their second lines',
    async ({ page, signIn, audit }) => {
      const alike = await fiveNamedAlike();
      await signIn(ADMIN);
      await page.goto('/subscriber-management/subscribers');
      await page.getByRole('heading', { name: 'Subscribers' }).waitFor();
      await page.getByRole('button', { name: 'Go anywhere' }).tap();
      await page.keyboard.type(alike[0]!.name, TYPING);
      const dialog = page.getByRole('dialog', { name: 'Go anywhere' });
      await expect
        .poll(() => dialog.getByRole('combobox', { name: 'Screen or record' }).inputValue())
        .toBe(alike[0]!.name);
      const lines = alike.map((subscriber) => `${subscriber.email} · ${subscriber.mobile}`);
      await expect.poll(async () => (await secondLines(page, 'Subscribers')).sort()).toEqual([...lines].sort());
      // Each second line is shown whole (wrapped, not cut), inside the screen.
      for (const line of await dialog.locator('.go-anywhere__details').all()) {
        expect(await line.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
        const box = await line.boundingBox();
        expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await audit('go anywhere: five subscribers named alike (390 px)');
    },
    { ...PHONE, hasTouch: true, isMobile: true },
  );
});
