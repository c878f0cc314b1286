import { describe, expect } from 'vitest';
import { ADMIN } from '../support/accounts.ts';
import { Api, unique } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { toast } from '../support/ui.ts';

useBrowser();

const LIST = '/voucher-management/vouchers';
const PHONE = { viewport: { width: 390, height: 844 } };

interface Voucher {
  code: string;
  is_active: boolean;
  usage_limit: number | null;
  discount_value: number;
}

async function vouchersOf(admin: Api, prefix: string): Promise<Voucher[]> {
  return (await admin.get<{ data: Voucher[] }>(`vouchers?q=${prefix}&_page_size=100`)).data;
}

for (const [size, options] of [
  ['1280 px', {}],
  ['390 px', PHONE],
] as const) {
  describe(`all matching and import at ${size}`, () => {
    journey(
      `select all matching beyond the page, confirm the count, deactivate them all (${size})`,
      async ({ page, signIn, audit }) => {
        const admin = await Api.login(ADMIN.email, ADMIN.password);
        const prefix = unique('B');
        for (let n = 0; n < 25; n += 1) {
          await admin.post('vouchers', {
            code: `${prefix}${String(n).padStart(2, '0')}`,
            discount_type: 'flat',
            discount_value: 50,
            valid_from: '2026-01-01',
            valid_to: '2026-12-31',
          });
        }
        await signIn(ADMIN);
        await page.goto(`${LIST}?q=${prefix}`);
        await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
        await page.getByRole('button', { name: 'Select all 25 matching' }).click();
        const bar = page.getByRole('region', { name: 'Bulk actions' });
        await expect.poll(() => bar.textContent()).toContain('All 25 matching vouchers are selected.');
        await bar.getByRole('button', { name: 'Deactivate all' }).click();
        const dialog = page.getByRole('dialog', { name: 'Deactivate 25 vouchers?' });
        await dialog.waitFor();
        await audit(`deactivate all matching confirmation ${size}`);
        await dialog.getByRole('button', { name: 'Deactivate all' }).click();
        await toast(page, '25 of 25 matching record(s) updated.').first().waitFor();
        expect((await vouchersOf(admin, prefix)).every((voucher) => !voucher.is_active)).toBe(true);
        const others = await admin.get<{ meta: { total: number } }>('vouchers?is_active=false');
        expect(others.meta.total).toBeGreaterThanOrEqual(25);
      },
      options,
    );

    journey(
      `import a file: map its columns, dry run, apply, and nothing more the second time (${size})`,
      async ({ page, signIn, audit }) => {
        const admin = await Api.login(ADMIN.email, ADMIN.password);
        const prefix = unique('I');
        await admin.post('vouchers', {
          code: `${prefix}01`,
          discount_type: 'flat',
          discount_value: 50,
          valid_from: '2026-01-01',
          valid_to: '2026-12-31',
          usage_limit: 1,
        });
        const csv = [
          'Code,Discount type,Amount,Valid from,Valid to,Usage limit',
          `${prefix}01,flat,50,2026-01-01,2026-12-31,9`,
          `${prefix}02,Percent,10,2026-01-01,2026-12-31,`,
          `${prefix} 03,flat,50,2026-01-01,2026-12-31,`,
        ].join('\n');
        await signIn(ADMIN);
        await page.goto(LIST);
        await page.getByRole('button', { name: 'More actions' }).click();
        await page.getByRole('link', { name: 'Import' }).click();
        await page.getByRole('heading', { name: 'Import vouchers' }).waitFor();
        await page
          .getByLabel('File')
          .setInputFiles({ name: 'vouchers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
        await page.getByRole('button', { name: 'Read the file' }).click();
        const amount = page.getByRole('combobox', { name: 'Field for column Amount' });
        await amount.waitFor();
        expect(await amount.inputValue()).toBe('');
        await amount.selectOption('discount_value');
        await page.getByRole('button', { name: 'Dry run' }).click();
        const counts = page.getByRole('list', { name: 'Dry run' });
        await expect.poll(() => counts.textContent()).toContain('1 to create');
        expect(await counts.textContent()).toContain('1 to update');
        expect(await counts.textContent()).toContain('1 in error');
        await page.getByText('Use 4 to 20 capital letters or digits.').first().waitFor();
        await audit(`import dry run ${size}`);
        await page.getByRole('button', { name: 'Apply 2 change(s)' }).click();
        await toast(page, /1 record\(s\) were created, 1 updated/)
          .first()
          .waitFor();
        const stored = await vouchersOf(admin, prefix);
        expect(stored.map((voucher) => [voucher.code, voucher.usage_limit, voucher.discount_value]).sort()).toEqual([
          [`${prefix}01`, 9, 50],
          [`${prefix}02`, null, 10],
        ]);

        await page.getByRole('button', { name: 'Dry run' }).click();
        await expect.poll(() => counts.textContent()).toContain('2 unchanged');
        expect(await page.getByRole('button', { name: /^Apply/ }).isDisabled()).toBe(true);
      },
      options,
    );
  });
}
