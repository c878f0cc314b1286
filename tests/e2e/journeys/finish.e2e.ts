import { describe, expect } from 'vitest';
import { ADMIN, OPERATOR } from '../support/accounts.ts';
import { Api, unique, uniqueLetters } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { verifyAddress } from '../support/mail.ts';
import { auditBothWidths, sidebarLabels, waitForPath } from '../support/ui.ts';

useBrowser();

describe('the console reads as one finished product', () => {
  journey(
    'enum values read as the manifest labels them in a list, its filter and a detail page, which shows no record version',
    async ({ page, signIn, audit }) => {
      await signIn(ADMIN);
      await page.goto('/masters/countries?q=India');
      const row = page.getByRole('row').filter({ hasText: 'India' }).first();
      await row.waitFor();
      expect(await row.getByRole('cell', { name: 'Asia', exact: true }).count()).toBe(1);
      expect(await page.getByRole('cell', { name: 'asia', exact: true }).count()).toBe(0);
      await page.getByRole('button', { name: 'Filter', exact: true }).click();
      const filter = page.getByRole('dialog', { name: 'Add a filter' });
      await filter.getByRole('combobox', { name: 'Field', exact: true }).selectOption({ label: 'Region' });
      const region = filter.getByRole('combobox', { name: 'Region', exact: true });
      expect(await region.locator('option').allTextContents()).toEqual([
        'Choose a value',
        'Africa',
        'Americas',
        'Asia',
        'Europe',
        'Oceania',
      ]);
      await page.keyboard.press('Escape');
      await filter.waitFor({ state: 'detached' });
      await row.getByRole('button', { name: /^Actions for / }).click();
      await page.getByRole('menu').getByRole('menuitem', { name: 'View', exact: true }).click();
      await waitForPath(page, /^\/masters\/countries\/\d+$/);
      const terms = page.locator('dt');
      await terms.first().waitFor();
      expect(await terms.allTextContents()).not.toContain('Version');
      expect(await page.locator('dt:text-is("Region") + dd').textContent()).toBe('Asia');
      await auditBothWidths(page, audit, 'country detail');
    },
  );

  journey(
    'list filters of related records search the server; the role matrix ticks View with an action that needs it, and says so',
    async ({ page, signIn, audit }) => {
      await signIn(ADMIN);
      await page.goto('/subscriber-management/subscribers');
      await page.getByRole('button', { name: 'Filter', exact: true }).click();
      const filter = page.getByRole('dialog', { name: 'Add a filter' });
      await filter.getByRole('combobox', { name: 'Field', exact: true }).selectOption({ label: 'Country' });
      const country = filter.getByRole('combobox', { name: 'Country', exact: true });
      await country.pressSequentially('Viet', { delay: 30 });
      await page.getByRole('listbox').getByRole('option', { name: 'Vietnam' }).click();
      await filter.getByRole('button', { name: 'Apply' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.has('country_id')).toBe(true);
      await page.getByRole('button', { name: 'Remove filter: Country is Vietnam' }).waitFor();
      await auditBothWidths(page, audit, 'subscriber list with a country filter');

      await page.goto('/user-management/roles/add');
      await page.getByRole('checkbox', { name: 'Executives: Edit', exact: true }).check();
      expect(await page.getByRole('checkbox', { name: 'Executives: View', exact: true }).isChecked()).toBe(true);
      // Said once, in the matrix's status line above the table, which screen readers announce.
      await expect
        .poll(() =>
          page.getByRole('status').filter({ hasText: 'Executives: View granted too, as Edit needs it.' }).count(),
        )
        .toBe(1);
      await auditBothWidths(page, audit, 'role matrix with a note');
    },
  );

  journey(
    'the upload screen is a form of the generated kind, its country searched on the server',
    async ({ page, signIn, audit }) => {
      await signIn(OPERATOR);
      await page.goto('/data-upload-management/uploads/add');
      await page.getByRole('heading', { name: 'Upload trade data' }).waitFor();
      // The generated forms' markup: the same form, controls and buttons.
      expect(await page.locator('form.schema-form .form-control').count()).toBeGreaterThanOrEqual(4);
      expect(await page.getByRole('combobox', { name: /^Country/ }).getAttribute('aria-autocomplete')).toBe('list');
      expect(
        await page
          .locator('form.schema-form .form-actions')
          .getByRole('link', { name: 'Back to data uploads' })
          .count(),
      ).toBe(1);
      await auditBothWidths(page, audit, 'upload form');
    },
  );

  journey(
    'a report keeps its period in the address, reads months and money for people, and says so when nothing happened',
    async ({ page, signIn, audit }) => {
      await signIn(ADMIN);
      await page.goto('/admin-reporting-management/reports?from=2026-01-01&to=2026-06-30');
      await page.getByRole('heading', { name: 'Admin reporting' }).waitFor();
      expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe('2026-01-01');
      expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe('2026-06-30');
      const points = page.getByRole('figure', { name: 'Points consumed' });
      await points.waitFor();
      await points.getByText('Show the numbers').click();
      expect(await points.getByRole('rowheader').allTextContents()).toEqual([
        'Jan 2026',
        'Feb 2026',
        'Mar 2026',
        'Apr 2026',
        'May 2026',
        'Jun 2026',
      ]);
      await auditBothWidths(page, audit, 'admin reporting');

      await page.getByLabel('From', { exact: true }).fill('2019-01-01');
      await page.getByLabel('To', { exact: true }).fill('2019-03-31');
      await expect.poll(() => new URL(page.url()).search).toBe('?from=2019-01-01&to=2019-03-31');
      await page.getByText(/^Nothing happened between 01 Jan 2019 and 31 Mar 2019/).waitFor();
      expect(await page.getByRole('figure').count()).toBe(0);
      // The address opens the same report in another tab.
      const again = await page.context().newPage();
      await again.goto(page.url());
      await again.getByText(/^Nothing happened between 01 Jan 2019 and 31 Mar 2019/).waitFor();
    },
  );

  journey(
    '403 and 404 pages keep the header and sidebar; Back in a tab opened on a record goes up to its list',
    async ({ page, signIn, audit }) => {
      await signIn(OPERATOR);
      await page.goto('/voucher-management/vouchers');
      await page.getByRole('heading', { name: /ERROR 403\s+ACCESS DENIED/ }).waitFor();
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      expect(await page.getByRole('button', { name: 'Back' }).count()).toBe(1);
      await auditBothWidths(page, audit, '403 with the sidebar');
      await page.goto('/masters/no-such-screen');
      await page.getByRole('heading', { name: /ERROR 404\s+PAGE NOT FOUND/ }).waitFor();
      await page.getByRole('navigation', { name: 'Main' }).waitFor();

      // A record opened straight in a new tab: nothing of the console behind it, so Back goes up, not away.
      const admin = await Api.login(ADMIN.email, ADMIN.password);
      const [voucher] = (await admin.get<{ data: { id: number }[] }>('vouchers?_page_size=1')).data;
      await signIn(ADMIN);
      const tab = await page.context().newPage();
      await tab.goto(`/voucher-management/vouchers/${voucher!.id}/edit`);
      await tab.getByRole('heading', { name: 'Edit voucher' }).waitFor();
      await tab.getByRole('button', { name: 'Back' }).click();
      await waitForPath(tab, '/voucher-management/vouchers');
    },
  );

  journey(
    'an administrator changes a role while its user is signed in: the sidebar follows, and the open screen gives way to the 403 page',
    async ({ page, signIn }) => {
      const admin = await Api.login(ADMIN.email, ADMIN.password);
      const { data: role } = await admin.post<{ data: { id: number } }>('roles', {
        name: `Live Role ${uniqueLetters(6)}`,
        description: 'Made by the end-to-end suite',
      });
      const grant = (permissions: Record<string, string[]>) =>
        admin.put(`roles/${role.id}/permissions`, { permissions }, { 'if-match': '*' });
      await grant({ VOUCHER: ['view'], BANNER: ['view'], USER_PROFILE: ['view'] });
      const password = 'Journey@2468';
      const email = `${unique('live').toLowerCase()}@example.com`;
      await admin.post('users', {
        first_name: 'Live',
        last_name: 'Change',
        email,
        mobile: '9876512346',
        role_id: role.id,
        password,
        confirm_password: password,
      });
      await verifyAddress(email);
      await signIn({ email, password });
      await page.goto('/voucher-management/vouchers');
      await page.getByRole('heading', { name: 'Vouchers' }).waitFor();
      await expect.poll(() => sidebarLabels(page)).toEqual(['Voucher codes', 'Banners']);

      await grant({ VOUCHER: ['view'], USER_PROFILE: ['view'] });
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect.poll(() => sidebarLabels(page)).toEqual(['Voucher codes']);
      expect(new URL(page.url()).pathname).toBe('/voucher-management/vouchers');

      await grant({ BANNER: ['view'], USER_PROFILE: ['view'] });
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.getByRole('heading', { name: /ERROR 403\s+ACCESS DENIED/ }).waitFor();
      await expect.poll(() => sidebarLabels(page)).toEqual(['Banners']);
    },
  );
});
