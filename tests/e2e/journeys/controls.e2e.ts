import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { ADMIN, SALES } from '../support/accounts.ts';
import { Api, unique } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { pathOf, row, rowAction } from '../support/ui.ts';

useBrowser();

const VOUCHERS = '/voucher-management/vouchers';
const SUBSCRIBERS = '/subscriber-management/subscribers';
const PHONE = { viewport: { width: 390, height: 844 } };
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const forbidden = (page: Page) => page.getByRole('heading', { name: /ERROR 403\s+ACCESS DENIED/ });

for (const [size, options] of [
  ['1280 px', {}],
  ['390 px', PHONE],
] as const) {
  describe(`controls that can succeed at ${size}`, () => {
    journey(
      `a role that may not delete sees no Trash, and its address shows the 403 page where it was asked (${size})`,
      async ({ page, signIn, audit }) => {
        await signIn(SALES);
        await page.goto(SUBSCRIBERS);
        await page.getByRole('heading', { name: 'Subscribers', level: 1 }).waitFor();
        await page.getByRole('button', { name: 'More actions' }).click();
        await page.getByRole('button', { name: 'Download CSV' }).waitFor();
        expect(await page.getByRole('link', { name: 'Trash', exact: true }).count()).toBe(0);
        await audit(`list without Trash ${size}`);

        await page.goto(`${SUBSCRIBERS}/trash`);
        await forbidden(page).waitFor();
        expect(pathOf(page)).toBe(`${SUBSCRIBERS}/trash`);
        expect(await page.getByRole('table').count()).toBe(0);
      },
      options,
    );

    journey(
      `a forbidden address keeps its path while showing the 403 page (${size})`,
      async ({ page, signIn, audit }) => {
        await signIn(SALES);
        await page.goto(SUBSCRIBERS);
        await page.getByRole('heading', { name: 'Subscribers', level: 1 }).waitFor();
        await page.goto(`${VOUCHERS}?q=SAVE`);
        await forbidden(page).waitFor();
        expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(`${VOUCHERS}?q=SAVE`);
        await page.getByRole('banner').waitFor();
        await audit(`403 at the address asked for ${size}`);
        // Back goes to the page before it, as from any other address.
        await page.goBack();
        await page.getByRole('heading', { name: 'Subscribers', level: 1 }).waitFor();
        expect(pathOf(page)).toBe(SUBSCRIBERS);
      },
      options,
    );

    journey(
      `a deleted voucher comes back with Undo in the toast (${size})`,
      async ({ page, signIn, audit }) => {
        const admin = await Api.login(ADMIN.email, ADMIN.password);
        const code = unique('UNDO');
        const { data: voucher } = await admin.post<{ data: { id: number } }>('vouchers', {
          code,
          discount_type: 'flat',
          discount_value: 40,
          valid_from: day(0),
          valid_to: day(20),
        });
        await signIn(ADMIN);
        await page.goto(`${VOUCHERS}?q=${code}`);
        await row(page, code).waitFor();

        await rowAction(page, code, 'Delete');
        await page.getByRole('dialog', { name: 'Delete voucher?' }).getByRole('button', { name: 'Delete' }).click();
        await row(page, code).waitFor({ state: 'detached' });
        const toast = page.locator('.Toastify__toast').filter({ hasText: 'Voucher deleted.' });
        const undo = toast.getByRole('button', { name: 'Undo' });
        // The pointer on the toast holds it open while the page is audited with it.
        await toast.hover();
        await audit(`delete toast with Undo ${size}`);
        await undo.click();
        await page.locator('.toast-body').filter({ hasText: 'Voucher restored.' }).waitFor();
        await row(page, code).waitFor();
        expect((await admin.get<{ data: { code: string } }>(`vouchers/${voucher.id}`)).data.code).toBe(code);
        await audit(`list after Undo ${size}`);
      },
      options,
    );
  });
}
