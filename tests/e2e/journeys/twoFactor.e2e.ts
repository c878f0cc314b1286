import { describe, expect } from 'vitest';
import { totpCode } from '../../../server/modules/auth/totp.ts';
import { ADMIN } from '../support/accounts.ts';
import { Api, uniqueLetters } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { verifyAddress } from '../support/mail.ts';
import { errorToast, loginThroughForm, waitForPath } from '../support/ui.ts';

useBrowser();

const PHONE = { viewport: { width: 390, height: 844 } };
const PROFILE = '/profile-management/profile';
const STEP_MILLISECONDS = 30_000;

/** A verified Read Only user made for the journey: the demo accounts stay password-only. */
async function newUser(password: string): Promise<{ email: string }> {
  const admin = await Api.login(ADMIN.email, ADMIN.password);
  const roles = await admin.get<{ data: Array<{ value: number; label: string }> }>('roles/options?q=Read%20Only');
  const email = `totp.${uniqueLetters(8).toLowerCase()}@example.com`;
  await admin.post('users', {
    first_name: 'Tara',
    last_name: 'Totp',
    email,
    mobile: '9876512346',
    role_id: roles.data[0]!.value,
    password,
    confirm_password: password,
  });
  await verifyAddress(email);
  return { email };
}

describe('two-factor sign-in', () => {
  journey(
    'enrols an authenticator app from the profile, keeps the recovery codes, then signs in with a code and with a recovery code (phone)',
    async ({ page, audit }) => {
      const password = 'Second@13579';
      const { email } = await newUser(password);
      await page.goto('/auth/login');
      await loginThroughForm(page, email, password);
      await waitForPath(page, /^\/(?!auth\/)/);

      await page.goto(PROFILE);
      const panel = page.getByRole('region', { name: 'Two-factor sign-in' });
      await panel.getByRole('button', { name: 'Set up an authenticator app' }).click();
      await panel.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
      const secret = (await panel.locator('.two-factor__secret').textContent())!.trim();
      await audit('two-factor enrolment (390 px)');
      await panel.getByLabel('Code from the app', { exact: true }).fill(totpCode(secret));
      await panel.getByRole('button', { name: 'Turn on' }).click();
      const list = panel.getByRole('list', { name: 'Recovery codes' });
      await list.waitFor();
      const codes = (await list.getByRole('listitem').allTextContents()).map((code) => code.trim());
      expect(codes).toHaveLength(10);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await panel.getByRole('button', { name: 'I have kept them' }).click();
      await panel.getByText(/^On since/).waitFor();

      // Signed out, the password alone is not enough: the second step asks for a code; a wrong one keeps what was typed.
      await page.evaluate(() => localStorage.clear());
      await page.goto('/auth/login');
      await loginThroughForm(page, email, password);
      const code = page.getByLabel('Authentication code', { exact: true });
      await code.waitFor();
      await audit('two-factor sign-in step (390 px)');
      await code.fill('000000');
      await code.press('Enter');
      await errorToast(page, 'Wrong code.').waitFor();
      expect(await code.inputValue()).toBe('000000');
      await code.fill(totpCode(secret, Date.now() + STEP_MILLISECONDS));
      await code.press('Enter');
      await waitForPath(page, /^\/(?!auth\/)/);

      // A recovery code signs in once.
      await page.evaluate(() => localStorage.clear());
      await page.goto('/auth/login');
      await loginThroughForm(page, email, password);
      await page.getByRole('button', { name: 'Use a recovery code' }).click();
      await page.getByLabel('Recovery code', { exact: true }).fill(codes[0]!);
      await page.getByLabel('Recovery code', { exact: true }).press('Enter');
      await waitForPath(page, /^\/(?!auth\/)/);
      await page.goto(PROFILE);
      await page
        .getByRole('region', { name: 'Two-factor sign-in' })
        .getByText(/9 recovery codes left/)
        .waitFor();
    },
    PHONE,
  );
});
