import { describe, expect } from 'vitest';
import { ADMIN } from '../support/accounts.ts';
import { Api, ApiFailure, unique, uniqueLetters } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { verifyAddress } from '../support/mail.ts';
import { auditBothWidths, field, row, rowAction, toast, waitForPath } from '../support/ui.ts';

useBrowser();

const VOUCHERS = '/voucher-management/vouchers';
const COUNTRIES = '/masters/countries';
const AUDIT_LOG = '/user-management/audit-log';
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A country no journey uses, with ISO codes nobody holds (tried again when the random ones are taken). */
async function newCountry(admin: Api): Promise<{ id: number; name: string }> {
  for (let attempt = 0; ; attempt += 1) {
    const name = `Journeyland ${uniqueLetters(6)}`;
    try {
      const created = await admin.post<{ data: { id: number } }>('countries', {
        name,
        iso2: uniqueLetters(2),
        iso3: uniqueLetters(3),
        region: 'asia',
        currency_code: 'INR',
      });
      return { id: created.data.id, name };
    } catch (failure) {
      if (!(failure instanceof ApiFailure) || failure.status !== 409 || attempt > 20) throw failure;
    }
  }
}

describe('every change leaves a trace that can be read and undone', () => {
  journey(
    'a voucher changed and put back from its History, a country found in the trash and restored, and the audit log filtered to the one who did it',
    async ({ page, signIn, audit }) => {
      const admin = await Api.login(ADMIN.email, ADMIN.password);
      const { data: role } = await admin.post<{ data: { id: number } }>('roles', {
        name: `Auditor ${uniqueLetters(6)}`,
        description: 'Made by the end-to-end suite',
      });
      await admin.put(
        `roles/${role.id}/permissions`,
        {
          permissions: {
            VOUCHER: ['view', 'edit', 'view_detail'],
            COUNTRIES: ['view', 'delete', 'view_detail'],
            USERS: ['view'],
            AUDIT_LOG: ['view', 'download'],
            USER_PROFILE: ['view'],
          },
        },
        { 'if-match': '*' },
      );
      const password = 'Journey@2468';
      const email = `${unique('audit').toLowerCase()}@example.com`;
      await admin.post('users', {
        first_name: 'Asha',
        last_name: 'Audit',
        email,
        mobile: '9876512347',
        role_id: role.id,
        password,
        confirm_password: password,
      });
      await verifyAddress(email);
      const code = unique('HIST');
      const { data: voucher } = await admin.post<{ data: { id: number } }>('vouchers', {
        code,
        discount_type: 'percent',
        discount_value: 10,
        valid_from: day(0),
        valid_to: day(30),
      });
      const country = await newCountry(admin);

      await signIn({ email, password });

      // Change the voucher through its form.
      await page.goto(`${VOUCHERS}/${voucher.id}/edit`);
      await expect.poll(() => field(page, 'Discount value').inputValue()).toBe('10');
      await field(page, 'Discount value').fill('25');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await waitForPath(page, VOUCHERS);

      // Its History reads the change in the manifest's words, newest first.
      await page.goto(`${VOUCHERS}/${voucher.id}`);
      await page.getByRole('heading', { level: 1, name: `Voucher ${code}` }).waitFor();
      await page.getByRole('button', { name: 'History' }).click();
      const entries = page.getByRole('listitem').filter({ has: page.getByRole('table') });
      await entries.first().waitFor();
      const newest = entries.first();
      await newest.getByText('Updated', { exact: true }).waitFor();
      expect(await newest.textContent()).toContain(`by ${email}`);
      const discount = newest
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: 'Discount value', exact: true }) });
      expect(await discount.getByRole('cell').allTextContents()).toEqual(['10', '25']);
      await auditBothWidths(page, audit, 'voucher history');

      // Restore the version as created: confirmed, then the record and its history show it.
      const created = entries.filter({ hasText: 'Created' });
      await created.getByRole('button', { name: /^Restore this version of / }).click();
      const confirmation = page.getByRole('dialog', { name: 'Restore this version?' });
      await audit('restore a version, confirmation');
      await confirmation.getByRole('button', { name: 'Restore' }).click();
      await confirmation.waitFor({ state: 'detached' });
      // A percent voucher's discount reads with %.
      await expect.poll(() => page.locator('dt:text-is("Discount value") + dd').textContent()).toBe('10%');
      await entries.first().getByText('Restored a version', { exact: true }).waitFor();
      expect(
        (await admin.get<{ data: { discount_value: number } }>(`vouchers/${voucher.id}`)).data.discount_value,
      ).toBe(10);

      // Delete the country: it goes to the trash, which lists it, and from where it comes back.
      await page.goto(`${COUNTRIES}?q=${encodeURIComponent(country.name)}`);
      await row(page, country.name).waitFor();
      await rowAction(page, country.name, 'Delete');
      const deletion = page.getByRole('dialog', { name: 'Delete country?' });
      await deletion.getByText(`${country.name} will be moved to the trash.`).waitFor();
      await deletion.getByRole('button', { name: 'Delete' }).click();
      await row(page, country.name).waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('link', { name: 'Trash', exact: true }).click();
      await waitForPath(page, `${COUNTRIES}/trash`);
      const trashed = row(page, country.name);
      await trashed.waitFor();
      expect(await trashed.textContent()).toContain(email);
      await auditBothWidths(page, audit, 'country trash');
      await trashed.getByRole('button', { name: `Restore ${country.name}` }).click();
      await trashed.waitFor({ state: 'detached' });
      await toast(page, /restored/i)
        .first()
        .waitFor();
      expect((await admin.get<{ data: { name: string } }>(`countries/${country.id}`)).data.name).toBe(country.name);

      // The audit log, filtered to this user: their voucher change, restore, and the country's delete and restore.
      await page.goto(AUDIT_LOG);
      await page.getByRole('heading', { level: 1, name: 'Audit Log' }).waitFor();
      const user = page.getByRole('combobox', { name: 'User', exact: true });
      await user.pressSequentially(email.slice(0, 12), { delay: 30 });
      await page.getByRole('listbox').getByRole('option', { name: email }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('user_id')).toBeTruthy();
      const shown = () => page.getByRole('table').locator('tbody > tr:not([hidden])').allTextContents();
      await expect
        .poll(
          async () => {
            const rows = await shown();
            return rows.length > 0 && rows.every((text) => text.includes(email));
          },
          { timeout: 15_000 },
        )
        .toBe(true);
      for (const action of ['Updated', 'Restored a version', 'Deleted', 'Restored from trash'])
        await row(page, action).first().waitFor();

      await page.getByLabel('Module', { exact: true }).selectOption({ label: 'Vouchers' });
      await expect.poll(() => new URL(page.url()).searchParams.get('module')).toBe('VOUCHER');
      const update = row(page, 'Updated').first();
      await update.getByRole('link', { name: `Open record #${voucher.id} of Vouchers` }).waitFor();
      await update.getByRole('button', { name: /^Show details/ }).click();
      await page.getByRole('rowheader', { name: 'Discount value', exact: true }).first().waitFor();
      await page.getByText('Request ID', { exact: true }).first().waitFor();
      await auditBothWidths(page, audit, 'audit log filtered to a user');

      await update.getByRole('link', { name: `Open record #${voucher.id} of Vouchers` }).click();
      await waitForPath(page, `${VOUCHERS}/${voucher.id}`);
    },
    { timeout: 180_000 },
  );
});
