import { describe, expect } from 'vitest';
import { ADMIN } from '../support/accounts.ts';
import { Api, uniqueLetters } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { deliveredMail, linkPath, verifyAddress } from '../support/mail.ts';
import { errorToast, loginThroughForm, pathOf, toast, waitForPath } from '../support/ui.ts';

useBrowser();

const PHONE = { viewport: { width: 390, height: 844 } };

/** A user an administrator created (Read Only), as the user-management screen does; their address is not verified. */
async function newUser(password: string): Promise<{ id: number; email: string }> {
  const admin = await Api.login(ADMIN.email, ADMIN.password);
  const roles = await admin.get<{ data: Array<{ value: number; label: string }> }>('roles/options?q=Read%20Only');
  const email = `mail.${uniqueLetters(8).toLowerCase()}@example.com`;
  const created = await admin.post<{ data: { id: number } }>('users', {
    first_name: 'Mira',
    last_name: 'Mail',
    email,
    mobile: '9876512345',
    role_id: roles.data[0]!.value,
    password,
    confirm_password: password,
  });
  return { id: created.data.id, email };
}

describe('e-mail delivered through SMTP', () => {
  journey(
    'Forgot password: the link read from the delivered e-mail sets a new password, which signs in (phone)',
    async ({ page, audit }) => {
      const { email } = await newUser('Before@13579');
      await verifyAddress(email);

      await page.goto('/auth/login');
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await waitForPath(page, '/auth/forgot-password');
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await page
        .getByText('If an account exists for this email, a link to reset the password has been sent.')
        .waitFor();

      const mail = await deliveredMail(email, 2);
      expect(mail.subject).toBe('Reset your password for the Trade Data administration console');
      expect(mail.text).toContain('expires in 30 minutes');
      expect(mail.html).toContain('Choose a new password');
      await page.goto(linkPath(mail));
      await page.getByText(`Choose a new password for ${email}.`).waitFor();
      await audit('reset password from the e-mailed link (390 px)');
      await page.getByLabel('New password', { exact: true }).fill('After@24680');
      await page.getByLabel('Confirm password', { exact: true }).fill('After@24680');
      await page.getByRole('button', { name: 'Save new password' }).click();
      await page.getByText('Your password has been changed. Please log in.').waitFor();

      await page.getByRole('link', { name: 'Sign in' }).click();
      await waitForPath(page, '/auth/login');
      await loginThroughForm(page, email, 'Before@13579');
      await errorToast(page, 'Invalid email or password.').waitFor();
      await loginThroughForm(page, email, 'After@24680');
      await waitForPath(page, /^\/(?!auth\/)/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    },
    PHONE,
  );

  journey(
    'a new user is refused until verified: the message, "Send the link again" (too soon, says so), the delivered link, then signs in',
    async ({ page, audit }) => {
      const { email } = await newUser('Verify@13579');
      const invitation = await deliveredMail(email);
      expect(invitation.subject).toBe('Verify your e-mail address for the Trade Data administration console');
      expect(invitation.text).toContain('expires in 7 days');

      await page.goto('/auth/login');
      await loginThroughForm(page, email, 'Verify@13579');
      // Said once, by its toast; the form adds only the way to a new link.
      await errorToast(page, 'Your email address is not verified yet.').waitFor();
      expect(
        await page
          .getByRole('region', { name: 'Sign in' })
          .getByText('Your email address is not verified yet.')
          .count(),
      ).toBe(0);
      await audit('sign-in refused for an unverified address');
      expect(pathOf(page)).toBe('/auth/login');
      // The invitation went out a moment ago: the server makes the next one wait, and the screen says how long.
      await page.getByRole('button', { name: 'Send the link again' }).click();
      await errorToast(
        page,
        /A verification link was sent to you a moment ago\. Try again in \d+ second\(s\)\./,
      ).waitFor();
      await page.getByRole('button', { name: /^Send the link again \(in \d+ s\)$/ }).waitFor();

      await page.goto(linkPath(invitation));
      await page.getByText('Your email address has been verified. You can sign in now.').waitFor();
      expect(pathOf(page)).toBe('/auth/verify-email');
      await page.getByRole('link', { name: 'Go to sign in' }).click();
      await loginThroughForm(page, email, 'Verify@13579');
      await waitForPath(page, /^\/(?!auth\/)/);
    },
  );

  journey(
    "an administrator sends the verification link again from the user's detail screen",
    async ({ page, signIn, audit, newContext }) => {
      const { id, email } = await newUser('Resend@13579');
      await deliveredMail(email);
      await signIn(ADMIN);
      await page.goto(`/user-management/users/${id}`);
      const panel = page.getByRole('region', { name: 'Email verification' });
      await panel.getByText(`${email} is not verified yet`).waitFor();
      await audit('user detail with e-mail verification');
      await panel.getByRole('button', { name: 'Send the verification link again' }).click();
      await toast(page, `A new verification link was sent to ${email}.`).waitFor();

      // The user opens the new link in their own browser.
      const resent = await deliveredMail(email, 2);
      const users = await (await newContext()).newPage();
      await users.goto(linkPath(resent));
      await users.getByText('Your email address has been verified. You can sign in now.').waitFor();
      await page.reload();
      await panel.getByText(new RegExp(`^${email.replaceAll('.', '\\.')} was verified on `)).waitFor();
      expect(await panel.getByRole('button').count()).toBe(0);
    },
  );

  journey(
    'the development mailbox lists the e-mail with its link, which opens the reset screen (phone)',
    async ({ page, audit }) => {
      const { email } = await newUser('Mailbox@13579');
      await verifyAddress(email);
      await page.goto('/auth/forgot-password');
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await page.getByRole('link', { name: 'development mailbox' }).click();
      await waitForPath(page, '/dev/mailbox');
      const message = page.getByRole('article').filter({ hasText: email }).filter({ hasText: 'Reset your password' });
      await message.waitFor();
      await message.getByText('Sent through the mail server').waitFor({ timeout: 20_000 });
      await audit('development mailbox (390 px)');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await message.getByRole('link', { name: /\/auth\/reset-password\?token=/ }).click();
      await waitForPath(page, '/auth/reset-password');
      await page.getByText(`Choose a new password for ${email}.`).waitFor();
    },
    PHONE,
  );
});
