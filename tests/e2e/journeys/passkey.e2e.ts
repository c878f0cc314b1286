import { describe, expect } from 'vitest';
import { ADMIN } from '../support/accounts.ts';
import { Api, uniqueLetters } from '../support/api.ts';
import { BASE_URL } from '../support/env.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { verifyAddress } from '../support/mail.ts';
import { loginThroughForm, waitForPath } from '../support/ui.ts';

useBrowser();

const PROFILE = '/profile-management/profile';
/**
 * The console as a browser must open it for passkeys: without PUBLIC_URL the server's relying party is
 * `localhost:<port>` (docs/api.md, "Passkeys"), and an IP address is no relying party id.
 */
const LOCALHOST = { baseURL: BASE_URL.replace('//127.0.0.1:', '//localhost:') };

/** A verified Read Only user made for the journey: the demo accounts stay password-only. */
async function newUser(password: string): Promise<{ email: string }> {
  const admin = await Api.login(ADMIN.email, ADMIN.password);
  const roles = await admin.get<{ data: Array<{ value: number; label: string }> }>('roles/options?q=Read%20Only');
  const email = `passkey.${uniqueLetters(8).toLowerCase()}@example.com`;
  await admin.post('users', {
    first_name: 'Pia',
    last_name: 'Passkey',
    email,
    mobile: '9876512347',
    role_id: roles.data[0]!.value,
    password,
    confirm_password: password,
  });
  await verifyAddress(email);
  return { email };
}

describe('passkeys', () => {
  journey(
    "adds a passkey on the profile with Chromium's virtual authenticator, signs in with it alone, then uses it as the step after the password",
    async ({ context, page, audit }) => {
      const cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });
      const password = 'Passkey@13579';
      const { email } = await newUser(password);
      await page.goto('/auth/login');
      await loginThroughForm(page, email, password);
      await waitForPath(page, /^\/(?!auth\/)/);

      await page.goto(PROFILE);
      const panel = page.getByRole('region', { name: 'Passkeys' });
      await panel.getByText('No passkeys yet.').waitFor();
      await panel.getByLabel('Name of the new passkey').fill('This laptop');
      await panel.getByRole('button', { name: 'Add a passkey' }).click();
      const list = panel.getByRole('list', { name: 'Your passkeys' });
      await list.getByText('This laptop').waitFor();
      await list.getByText(/last used never/).waitFor();
      await audit('passkeys on the profile');

      // Signed out: the passkey alone signs in, no password typed.
      await page.evaluate(() => localStorage.clear());
      await page.goto('/auth/login');
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await waitForPath(page, /^\/(?!auth\/)/);
      await page.goto(PROFILE);
      await page
        .getByRole('list', { name: 'Your passkeys' })
        .getByText(/last used \d/)
        .waitFor();

      // After the password, the passkey is the second step.
      await page.evaluate(() => localStorage.clear());
      await page.goto('/auth/login');
      await loginThroughForm(page, email, password);
      const step = page.getByRole('button', { name: 'Use a passkey' });
      await step.waitFor();
      expect(await page.getByLabel('Authentication code').count()).toBe(0);
      await audit('passkey as the second step');
      await step.click();
      await waitForPath(page, /^\/(?!auth\/)/);
    },
    LOCALHOST,
  );
});
