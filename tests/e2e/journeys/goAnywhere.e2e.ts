import { describe, expect } from 'vitest';
import { ADMIN, SALES } from '../support/accounts.ts';
import { Api } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { waitForPath } from '../support/ui.ts';

useBrowser();

const PHONE = { viewport: { width: 390, height: 844 } };
type Subscriber = { id: number; name: string; email: string };

describe('go anywhere', () => {
  journey('Ctrl+K opens Go anywhere; a subscriber found by e-mail opens on its details, a screen by its name', async ({ page, signIn, audit }) => {
    const admin = await Api.login(ADMIN.email, ADMIN.password);
    const [subscriber] = (await admin.get<{ data: Subscriber[] }>('subscribers?_page_size=1&_sort=id&_order=desc')).data;
    await signIn(ADMIN);
    await page.goto('/voucher-management/vouchers');
    await page.getByRole('heading', { name: 'Vouchers' }).waitFor();

    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Go anywhere' });
    const box = dialog.getByRole('combobox', { name: 'Screen or record' });
    await expect.poll(() => box.evaluate((element) => element === document.activeElement)).toBe(true);
    await dialog.getByRole('option', { name: /Vouchers/ }).first().waitFor();
    await audit('go anywhere: the screens');

    await box.fill(subscriber!.email);
    const found = dialog.getByRole('group', { name: 'Subscribers' }).getByRole('option', { name: new RegExp(subscriber!.name) });
    await found.waitFor();
    await audit('go anywhere: a record found');
    await box.press('Enter');
    await waitForPath(page, `/subscriber-management/subscribers/${subscriber!.id}/details`);
    await expect.poll(() => dialog.count()).toBe(0);
    await page.getByText(subscriber!.name).first().waitFor();

    await page.keyboard.press('Control+k');
    await box.fill('plans subscription');
    await dialog.getByRole('option', { name: /^Plans/ }).first().waitFor();
    await box.press('Enter');
    await waitForPath(page, '/subscription-management/plans');

    // Escape closes it and gives focus back to what had it.
    const button = page.getByRole('button', { name: 'Go anywhere' });
    await button.click();
    await box.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => button.evaluate((element) => element === document.activeElement)).toBe(true);
  });

  journey(
    'at 390 px the header button opens Go anywhere; an executive finds their own subscriber and not another',
    async ({ page, signIn, audit }) => {
      const admin = await Api.login(ADMIN.email, ADMIN.password);
      const sales = await Api.login(SALES.email, SALES.password);
      const [mine] = (await sales.get<{ data: Subscriber[] }>('subscribers?_page_size=1')).data;
      const everyone = (await admin.get<{ data: Subscriber[] }>('subscribers?_page_size=10')).data;
      const mineIds = new Set((await sales.get<{ data: Subscriber[] }>('subscribers?_page_size=100')).data.map((row) => row.id));
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
});
