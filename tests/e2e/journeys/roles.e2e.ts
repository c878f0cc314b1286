import { describe, expect } from 'vitest';
import { ADMIN } from '../support/accounts.ts';
import { Api, unique, uniqueLetters } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { verifyAddress } from '../support/mail.ts';
import { recordApiCalls, sidebarLabels, toast, waitForPath } from '../support/ui.ts';

useBrowser();

describe('roles', () => {
  journey(
    "PERM-06 removing a module from one's own role reloads the permissions and the entry leaves the sidebar",
    async ({ page, signIn, audit }) => {
      // A role that may edit roles and see vouchers, and a user holding it.
      const admin = await Api.login(ADMIN.email, ADMIN.password);
      const roleName = `Journey Editor ${uniqueLetters(6)}`;
      const { data: role } = await admin.post<{ data: { id: number } }>('roles', { name: roleName, description: 'Made by the end-to-end suite' });
      await admin.put(
        `roles/${role.id}/permissions`,
        { permissions: { ROLES: ['view', 'edit', 'view_detail'], VOUCHER: ['view', 'download'], USER_PROFILE: ['view'] } },
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
      await expect.poll(() => sidebarLabels(page)).toEqual(['User Management', 'Voucher Management']);

      await page.getByRole('searchbox', { name: /search roles/i }).fill(roleName);
      await page.getByRole('link', { name: `Edit ${roleName}` }).click();
      await waitForPath(page, `/user-management/roles/${role.id}/edit`);
      const voucherView = page.getByRole('checkbox', { name: 'Vouchers: View', exact: true });
      const voucherDownload = page.getByRole('checkbox', { name: 'Vouchers: Download', exact: true });
      await expect.poll(() => voucherView.isChecked()).toBe(true);
      expect(await voucherDownload.isChecked()).toBe(true);
      expect(await page.getByRole('checkbox', { name: 'Vouchers: Add', exact: true }).isChecked()).toBe(false);
      await audit('role permission matrix');

      await voucherView.uncheck();
      await voucherDownload.uncheck();
      const permissionLoadsBefore = calls.filter((call) => call.method === 'GET' && call.path === 'user/permission').length;
      await page.getByRole('button', { name: 'Save role' }).click();
      await waitForPath(page, '/user-management/roles');
      await toast(page, /./).first().waitFor();

      // Without a reload: the permissions are fetched again and the sidebar follows.
      await expect.poll(() => calls.filter((call) => call.method === 'GET' && call.path === 'user/permission').length, { timeout: 5_000 }).toBeGreaterThan(permissionLoadsBefore);
      await expect.poll(() => sidebarLabels(page), { timeout: 5_000 }).toEqual(['User Management']);
      const saved = await admin.get<{ data: Record<string, string[]> }>(`roles/${role.id}/permissions`);
      expect(saved.data.VOUCHER).toBeUndefined();
      expect(saved.data.ROLES).toEqual(expect.arrayContaining(['view', 'edit']));

      // And the module's address now shows the 403 page.
      await page.goto('/voucher-management/vouchers');
      await page.getByRole('heading', { name: /ERROR 403\s+ACCESS DENIED/ }).waitFor();
    },
    { timeout: 120_000 },
  );
});
