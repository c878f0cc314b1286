import { describe, expect } from 'vitest';
import { ADMIN } from '../support/accounts.ts';
import { Api } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { auditBothWidths, row, toast } from '../support/ui.ts';

useBrowser();

describe('API tokens', () => {
  journey(
    'an administrator makes a token for another system, which then reads what it was given and nothing more, until revoked',
    async ({ page, signIn, audit }) => {
      await signIn(ADMIN);
      await page.goto('/user-management/api-tokens');
      await page.getByRole('button', { name: 'New API token' }).click();
      const dialog = page.getByRole('dialog', { name: 'New API token' });
      const name = `Website ${Date.now().toString(36)}`;
      await dialog.getByLabel('Name').fill(name);
      await dialog
        .getByRole('group', { name: 'Vouchers' })
        .getByRole('checkbox', { name: 'View', exact: true })
        .check();
      await auditBothWidths(page, audit, 'new API token dialog');
      await dialog.getByRole('button', { name: 'Make the token' }).click();

      const made = page.getByRole('dialog', { name: `API token "${name}" made` });
      const secret = await made.getByLabel('The token').inputValue();
      expect(secret).toMatch(/^tda_/);
      await audit('API token shown once');
      await made.getByRole('button', { name: 'Done' }).click();
      await expect.poll(() => row(page, name).textContent()).toContain('Vouchers: View');

      // The other system, with the token alone.
      const system = new Api({ access: secret, refresh: '' });
      expect((await system.raw('GET', 'vouchers?_page_size=1')).status).toBe(200);
      expect((await system.raw('GET', 'subscribers?_page_size=1')).status).toBe(403);
      expect((await system.raw('POST', 'vouchers', {})).status).toBe(403);
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect.poll(() => row(page, name).textContent()).not.toContain('Never');
      await auditBothWidths(page, audit, 'API tokens list');

      await page.getByRole('button', { name: `Revoke ${name}` }).click();
      await page
        .getByRole('dialog', { name: `Revoke API token "${name}"?` })
        .getByRole('button', { name: 'Revoke' })
        .click();
      await expect.poll(() => toast(page, `API token "${name}" revoked.`).count()).toBe(1);
      await expect.poll(() => row(page, name).textContent()).toContain('Revoked');
      expect((await system.raw('GET', 'vouchers?_page_size=1')).status).toBe(401);
    },
  );
});
