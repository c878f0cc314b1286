import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import Papa from 'papaparse';
import { describe, expect } from 'vitest';
import { ADMIN } from '../support/accounts.ts';
import { Api, ApiFailure, unique } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import {
  errorToast,
  expectFieldError,
  field,
  recordApiCalls,
  row,
  rowAction,
  toast,
  waitForPath,
} from '../support/ui.ts';

useBrowser();

const LIST = '/voucher-management/vouchers';
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

interface Voucher {
  id: number;
  code: string;
  description?: string;
  discount_type: string;
  discount_value: number;
  is_active: boolean;
}

/** Types into the list's search and waits until the list is the search's (the address holds it): no click meets a list still changing. */
async function searchFor(page: Page, text: string): Promise<void> {
  await page.getByRole('searchbox', { name: /search vouchers/i }).fill(text);
  await page.waitForURL((url) => url.searchParams.get('q') === text);
  await page.waitForFunction(() => !document.querySelector('main [aria-busy="true"]'));
}

describe('voucher', () => {
  journey(
    'FORM-03 FORM-11 FORM-12 a voucher from creation with client and server errors to edit, deactivation, CSV and deletion',
    async ({ page, signIn, audit }) => {
      const admin = await Api.login(ADMIN.email, ADMIN.password);
      // A voucher that already holds the code the form will first try, so the server rejects it as a duplicate.
      const taken = unique('DUP');
      await admin.post('vouchers', {
        code: taken,
        discount_type: 'flat',
        discount_value: 50,
        valid_from: day(0),
        valid_to: day(10),
      });
      const code = unique('E2E');

      await signIn(ADMIN);
      const calls = recordApiCalls(page);
      await page.goto(LIST);
      await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
      await page.getByRole('table').waitFor();
      await audit('voucher list');

      // Create: the empty form first, so every required field complains in the browser.
      await page.getByRole('link', { name: 'Add Voucher' }).click();
      await waitForPath(page, `${LIST}/add`);
      const createButton = page.getByRole('button', { name: 'Create voucher' });
      await createButton.click();
      for (const label of ['Code', 'Discount type', 'Discount value', 'Valid from', 'Valid to']) {
        await expectFieldError(page, label, '* This field is required');
      }
      expect(calls.filter((call) => call.method === 'POST' && call.path === 'vouchers')).toHaveLength(0);
      await audit('voucher form with errors');

      await field(page, 'Code').fill('ab');
      await expectFieldError(page, 'Code', '* Use 4 to 20 capital letters or digits.');

      // Valid in the browser, refused by the server: the code is taken; its message lands on the field.
      await field(page, 'Code').fill(taken);
      await field(page, 'Description').fill('Created by the end-to-end suite');
      await field(page, 'Discount type').selectOption({ label: 'Percent' });
      await field(page, 'Discount value').fill('15');
      await field(page, 'Valid from').fill(day(0));
      await field(page, 'Valid to').fill(day(30));
      await expectFieldError(page, 'Code', null);
      const refused = page.waitForResponse(
        (response) => response.url().endsWith('/api/v1/vouchers') && response.request().method() === 'POST',
      );
      await createButton.click();
      const refusal = await refused;
      expect(refusal.status()).toBeGreaterThanOrEqual(400);
      const { errors } = (await refusal.json()) as { errors?: Record<string, string> };
      expect(errors?.code).toBeTruthy();
      await expectFieldError(page, 'Code', `* ${errors!.code!.replace(/^\* /, '')}`);
      // The field has the focus, and the Error toast names it by its title (ERR-03).
      await errorToast(page, `Code: ${errors!.code!.replace(/\.$/, '')}.`).waitFor();
      await expect.poll(() => field(page, 'Code').evaluate((element) => element === document.activeElement)).toBe(true);
      expect(new URL(page.url()).pathname).toBe(`${LIST}/add`);
      expect(await field(page, 'Description').inputValue()).toBe('Created by the end-to-end suite');

      await field(page, 'Code').fill(code);
      await expectFieldError(page, 'Code', null);
      await createButton.click();
      await waitForPath(page, LIST);
      await toast(page, /created/i)
        .first()
        .waitFor();
      await searchFor(page, code);
      await row(page, code).waitFor();
      const created = (await admin.get<{ data: Voucher[] }>(`vouchers?q=${code}`)).data.find(
        (voucher) => voucher.code === code,
      );
      expect(created).toMatchObject({ code, discount_type: 'percent', discount_value: 15, is_active: true });

      // Edit.
      await rowAction(page, code, 'Edit');
      await waitForPath(page, `${LIST}/${created!.id}/edit`);
      await expect.poll(() => field(page, 'Discount value').inputValue()).toBe('15');
      await field(page, 'Discount value').fill('20');
      await audit('voucher edit form');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await waitForPath(page, LIST);
      await expect
        .poll(async () => (await admin.get<{ data: Voucher }>(`vouchers/${created!.id}`)).data.discount_value)
        .toBe(20);

      // Deactivate (after confirming), then reactivate, from the list's switch.
      await searchFor(page, code);
      const active = page.getByRole('switch', { name: `Active: ${code}` });
      await expect.poll(() => active.getAttribute('aria-checked')).toBe('true');
      await active.click();
      const confirmation = page.getByRole('dialog', { name: 'Deactivate voucher?' });
      await confirmation.getByText(`${code} will be deactivated.`).waitFor();
      await confirmation.getByRole('button', { name: 'Deactivate' }).click();
      await expect.poll(() => active.getAttribute('aria-checked')).toBe('false');
      expect((await admin.get<{ data: Voucher }>(`vouchers/${created!.id}`)).data.is_active).toBe(false);
      await active.click();
      await expect.poll(() => active.getAttribute('aria-checked')).toBe('true');
      expect((await admin.get<{ data: Voucher }>(`vouchers/${created!.id}`)).data.is_active).toBe(true);

      // The CSV of the current list (filtered by the search): a header and our voucher's row.
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('button', { name: 'Download CSV' }).click();
      const file = await (await download).path();
      const csv = Papa.parse<Record<string, string>>((await readFile(file, 'utf8')).replace(/^\uFEFF/, ''), {
        header: true,
        skipEmptyLines: true,
      });
      expect(csv.errors).toEqual([]);
      const exported = csv.data.filter((line) => Object.values(line).includes(code));
      expect(exported).toHaveLength(1);
      expect(Object.values(exported[0]!)).toEqual(expect.arrayContaining([code, 'percent', '20']));
      expect(csv.data.every((line) => Object.values(line).some((value) => value.includes(code)))).toBe(true);

      // Delete, after confirming.
      await rowAction(page, code, 'Delete');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await audit('voucher delete confirmation');
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await row(page, code).waitFor({ state: 'detached' });
      const gone = await admin.get(`vouchers/${created!.id}`).then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(gone).toBeInstanceOf(ApiFailure);
      expect((gone as ApiFailure).status).toBe(404);
    },
    { timeout: 120_000 },
  );

  journey(
    'two tabs edit one voucher: the second save meets the first, Reload keeps what was typed and takes the other change, and the save then applies',
    async ({ context, page, signIn, audit }) => {
      const admin = await Api.login(ADMIN.email, ADMIN.password);
      const code = unique('TAB');
      const { data: voucher } = await admin.post<{ data: Voucher & { version: number } }>('vouchers', {
        code,
        description: 'Opened in two tabs',
        discount_type: 'percent',
        discount_value: 10,
        valid_from: day(0),
        valid_to: day(30),
      });
      const editPath = `${LIST}/${voucher.id}/edit`;

      await signIn(ADMIN);
      const second = await context.newPage();
      for (const tab of [page, second]) {
        await tab.goto(editPath);
        await expect.poll(() => field(tab, 'Discount value').inputValue()).toBe('10');
      }

      // The second tab saves a new description first.
      await field(second, 'Description').fill('Changed in the other tab');
      await second.getByRole('button', { name: 'Save changes' }).click();
      await waitForPath(second, LIST);

      // This tab, opened before that save, changes the discount and saves: refused, said once, nothing lost.
      await field(page, 'Discount value').fill('25');
      const refused = page.waitForResponse(
        (response) =>
          response.url().endsWith(`/api/v1/vouchers/${voucher.id}`) && response.request().method() === 'PUT',
      );
      await page.getByRole('button', { name: 'Save changes' }).click();
      expect((await refused).status()).toBe(412);
      const conflict = page
        .getByRole('alert')
        .filter({ hasText: 'This voucher was changed by someone else since you opened it' });
      await conflict.waitFor();
      expect(await page.getByText(/changed by someone else since you opened it/).count()).toBe(1);
      expect(await field(page, 'Discount value').inputValue()).toBe('25');
      await audit('voucher edit conflict');

      await conflict.getByRole('button', { name: 'Reload' }).click();
      await page.getByText('Changed by someone else, now shown: Description.').waitFor();
      expect(await field(page, 'Discount value').inputValue()).toBe('25');
      expect(await field(page, 'Description').inputValue()).toBe('Changed in the other tab');
      await audit('voucher edit reloaded');

      await page.getByRole('button', { name: 'Save changes' }).click();
      await waitForPath(page, LIST);
      const saved = (await admin.get<{ data: Voucher & { version: number } }>(`vouchers/${voucher.id}`)).data;
      expect(saved).toMatchObject({
        discount_value: 25,
        description: 'Changed in the other tab',
        version: voucher.version + 2,
      });
    },
    { timeout: 120_000 },
  );
});
