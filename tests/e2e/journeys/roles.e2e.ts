import { describe, expect } from 'vitest';
import { ADMIN } from '../support/accounts.ts';
import { Api, unique, uniqueLetters } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { deliveredMail, linkPath, verifyAddress } from '../support/mail.ts';
import {
  chooseRelated,
  field,
  loginThroughForm,
  recordApiCalls,
  rowAction,
  sidebarLabels,
  toast,
  waitForPath,
} from '../support/ui.ts';

useBrowser();

describe('roles', () => {
  journey(
    "PERM-06 removing a module from one's own role reloads the permissions and the entry leaves the sidebar",
    async ({ page, signIn, audit }) => {
      // A role that may edit roles and see vouchers, and a user holding it.
      const admin = await Api.login(ADMIN.email, ADMIN.password);
      const roleName = `Journey Editor ${uniqueLetters(6)}`;
      const { data: role } = await admin.post<{ data: { id: number } }>('roles', {
        name: roleName,
        description: 'Made by the end-to-end suite',
      });
      await admin.put(
        `roles/${role.id}/permissions`,
        {
          permissions: {
            ROLES: ['view', 'edit', 'view_detail'],
            VOUCHER: ['view', 'download'],
            USER_PROFILE: ['view'],
          },
        },
        { 'if-match': '*' },
      );
      const password = 'Journey@2468';
      const email = `${unique('editor').toLowerCase()}@example.com`;
      await admin.post('users', {
        first_name: 'Journey',
        last_name: 'Editor',
        email,
        mobile: '9876512345',
        role_id: role.id,
        password,
        confirm_password: password,
      });
      await verifyAddress(email);

      await signIn({ email, password });
      const calls = recordApiCalls(page);
      await page.goto('/user-management/roles');
      await page.getByRole('heading', { name: 'Roles' }).waitFor();
      await expect.poll(() => sidebarLabels(page)).toEqual(['Users and roles', 'Voucher codes']);

      await page.getByRole('searchbox', { name: /search roles/i }).fill(roleName);
      await rowAction(page, roleName, 'Edit');
      await waitForPath(page, `/user-management/roles/${role.id}/edit`);
      const voucherView = page.getByRole('checkbox', { name: 'Vouchers: View', exact: true });
      const voucherDownload = page.getByRole('checkbox', { name: 'Vouchers: Download', exact: true });
      await expect.poll(() => voucherView.isChecked()).toBe(true);
      expect(await voucherDownload.isChecked()).toBe(true);
      expect(await page.getByRole('checkbox', { name: 'Vouchers: Add', exact: true }).isChecked()).toBe(false);
      await audit('role permission matrix');

      await voucherView.uncheck();
      await voucherDownload.uncheck();
      const permissionLoadsBefore = calls.filter(
        (call) => call.method === 'GET' && call.path === 'user/permission',
      ).length;
      await page.getByRole('button', { name: 'Save role' }).click();
      await waitForPath(page, '/user-management/roles');
      await toast(page, /./).first().waitFor();

      // Without a reload: the permissions are fetched again and the sidebar follows.
      await expect
        .poll(() => calls.filter((call) => call.method === 'GET' && call.path === 'user/permission').length, {
          timeout: 5_000,
        })
        .toBeGreaterThan(permissionLoadsBefore);
      await expect.poll(() => sidebarLabels(page), { timeout: 5_000 }).toEqual(['Users and roles']);
      const saved = await admin.get<{ data: Record<string, string[]> }>(`roles/${role.id}/permissions`);
      expect(saved.data.VOUCHER).toBeUndefined();
      expect(saved.data.ROLES).toEqual(expect.arrayContaining(['view', 'edit']));

      // And the module's address now shows the 403 page.
      await page.goto('/voucher-management/vouchers');
      await page.getByRole('heading', { name: /ERROR 403\s+ACCESS DENIED/ }).waitFor();
    },
    { timeout: 120_000 },
  );

  journey(
    'the role editor is one matrix that fits the screen, with search, column selection, implied View and copy from role',
    async ({ page, signIn, audit }) => {
      const admin = await Api.login(ADMIN.email, ADMIN.password);
      const roleName = `Journey Matrix ${uniqueLetters(6)}`;
      const sourceName = `Journey Source ${uniqueLetters(6)}`;
      const { data: role } = await admin.post<{ data: { id: number } }>('roles', { name: roleName });
      const { data: source } = await admin.post<{ data: { id: number } }>('roles', { name: sourceName });
      await admin.put(
        `roles/${role.id}/permissions`,
        { permissions: { BANNER: ['view', 'edit'] } },
        { 'if-match': '*' },
      );
      await admin.put(
        `roles/${source.id}/permissions`,
        { permissions: { VOUCHER: ['view', 'download'], USERS: ['view'] } },
        { 'if-match': '*' },
      );

      await signIn(ADMIN);
      await page.goto(`/user-management/roles/${role.id}/edit`);
      const box = (name: string) => page.getByRole('checkbox', { name, exact: true });
      await expect.poll(() => box('Banners: Edit').isChecked()).toBe(true);
      const panel = page.getByRole('region', { name: 'Permissions by module' });
      // One table, every column in sight: nothing clipped, nothing scrolled sideways at 1280 px.
      expect(await page.getByRole('table').count()).toBe(1);
      expect(await panel.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
      // View is implied by Edit, and marked so.
      expect(await box('Banners: View').getAttribute('aria-describedby')).not.toBeNull();
      await audit('role matrix at 1280 px');

      await page.getByRole('searchbox', { name: 'Search modules' }).fill('vouch');
      await expect
        .poll(() => page.getByRole('rowheader').allTextContents())
        .toEqual(['Voucher Management', 'Vouchers']);
      await box('Download: every module shown').check();
      expect(await box('Vouchers: View').isChecked()).toBe(true);
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'View granted too for 1 module' }).count())
        .toBe(1);
      await page.getByRole('searchbox', { name: 'Search modules' }).fill('');

      await page.getByRole('button', { name: 'Copy from role…' }).click();
      await page.getByRole('combobox', { name: 'Role to copy' }).selectOption({ label: sourceName });
      await page.getByRole('button', { name: 'Copy', exact: true }).click();
      await expect.poll(() => box('Banners: Edit').isChecked()).toBe(false);
      expect(await box('Users: View').isChecked()).toBe(true);
      // Nothing is saved until Save.
      expect((await admin.get<{ data: Record<string, string[]> }>(`roles/${role.id}/permissions`)).data).toEqual({
        BANNER: ['edit', 'view'],
      });

      await page.setViewportSize({ width: 390, height: 844 });
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      // At 390 px the matrix scrolls inside its panel.
      expect(await panel.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
      await audit('role matrix at 390 px');

      await page.getByRole('button', { name: 'Save role' }).click();
      await waitForPath(page, '/user-management/roles');
      const saved = await admin.get<{ data: Record<string, string[]> }>(`roles/${role.id}/permissions`);
      expect(saved.data).toEqual({ USERS: ['view'], VOUCHER: ['download', 'view'] });
    },
    { timeout: 120_000, viewport: { width: 1280, height: 800 } },
  );

  journey(
    'a new user is invited by e-mail and chooses their own password; the administrator never types one',
    async ({ page, signIn, audit, newContext }) => {
      await signIn(ADMIN);
      await page.goto('/user-management/users/add');
      await field(page, 'First name').fill('Ina');
      expect(await page.getByLabel(/password/i).count()).toBe(0);
      const email = `${unique('invited').toLowerCase()}@example.com`;
      await field(page, 'Last name').fill('Invited');
      await field(page, 'Email').fill(email);
      await field(page, 'Mobile').fill('9876512399');
      await chooseRelated(page, 'Role', 'Read Only');
      await page.getByRole('button', { name: 'Create user' }).click();
      await toast(page, /./).first().waitFor();

      const mail = await deliveredMail(email);
      expect(mail.subject).toBe('You are invited to the Trade Data administration console');
      const invited = await (await newContext({ viewport: { width: 390, height: 844 } })).newPage();
      await invited.goto(linkPath(mail));
      await invited.getByRole('heading', { name: 'Choose your password' }).waitFor();
      await audit('choose your password at 390 px', invited);
      await invited.getByLabel('New password', { exact: true }).fill('Invited@24680');
      await invited.getByLabel('Confirm password', { exact: true }).fill('Invited@24680');
      await invited.getByRole('button', { name: 'Save password and verify' }).click();
      await invited.getByText('Your password is set and your email address verified. You can sign in now.').waitFor();
      await invited.getByRole('link', { name: 'Go to sign in' }).click();
      await loginThroughForm(invited, email, 'Invited@24680');
      await expect.poll(() => new URL(invited.url()).pathname.startsWith('/auth'), { timeout: 15_000 }).toBe(false);
    },
    { timeout: 120_000 },
  );
});
