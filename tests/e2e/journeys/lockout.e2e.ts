import { describe, expect } from 'vitest';
import { ADMIN } from '../support/accounts.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { errorToast, pathOf } from '../support/ui.ts';

useBrowser();

describe('no lockout', () => {
  journey(
    'an administrator deactivating their own account is asked first, then refused with the reason, and stays signed in and active',
    async ({ page, signIn, audit }) => {
      await signIn(ADMIN);
      await page.goto(`/user-management/users?q=${encodeURIComponent(ADMIN.email)}`);
      const own = page.getByRole('switch', { name: 'Active: Asha' });
      await own.waitFor();
      await own.click();
      const dialog = page.getByRole('dialog', { name: 'Deactivate user?' });
      await dialog.getByText('Asha will be deactivated.').waitFor();
      await audit('deactivation confirmation');
      await dialog.getByRole('button', { name: 'Deactivate' }).click();
      await errorToast(page, 'You cannot deactivate your own account.').first().waitFor();
      await expect.poll(() => own.getAttribute('aria-checked')).toBe('true');
      await page.reload();
      await page.getByRole('switch', { name: 'Active: Asha' }).waitFor();
      expect(await page.getByRole('switch', { name: 'Active: Asha' }).getAttribute('aria-checked')).toBe('true');
      expect(pathOf(page)).toBe('/user-management/users');
    },
  );
});
