import { describe, expect } from 'vitest';
import { ADMIN } from '../support/accounts.ts';
import { Api, unique } from '../support/api.ts';
import { startApi, stopApi } from '../support/control.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { errorToast, field, selectedOption, toast, waitForPath } from '../support/ui.ts';
import type { Page } from 'playwright-core';

useBrowser();

const LIST = '/voucher-management/vouchers';
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function fillVoucher(page: Page, code: string): Promise<void> {
  await field(page, 'Code').fill(code);
  await field(page, 'Description').fill('Typed before the fault');
  await field(page, 'Discount type').selectOption({ label: 'Flat amount' });
  await field(page, 'Discount value').fill('125');
  await field(page, 'Valid from').fill(day(1));
  await field(page, 'Valid to').fill(day(40));
}

async function expectVoucherFormKept(page: Page, code: string): Promise<void> {
  expect(new URL(page.url()).pathname).toBe(`${LIST}/add`);
  expect(await field(page, 'Code').inputValue()).toBe(code);
  expect(await field(page, 'Description').inputValue()).toBe('Typed before the fault');
  expect(await selectedOption(field(page, 'Discount type'))).toBe('Flat amount');
  expect(await field(page, 'Discount value').inputValue()).toBe('125');
  expect(await field(page, 'Valid to').inputValue()).toBe(day(40));
}

async function createdCode(code: string): Promise<boolean> {
  const admin = await Api.login(ADMIN.email, ADMIN.password);
  return (await admin.get<{ data: { code: string }[] }>(`vouchers?q=${code}`)).data.some(
    (voucher) => voucher.code === code,
  );
}

describe('faults', () => {
  journey(
    'ERR-05 with the API stopped a save shows "Some error occurred. Please contact Admin." and keeps the form',
    async ({ page, signIn }) => {
      const code = unique('DOWN');
      await signIn(ADMIN);
      await page.goto(`${LIST}/add`);
      await page.getByRole('button', { name: 'Create voucher' }).waitFor();
      await fillVoucher(page, code);
      // The toasts' container is loaded once a screen is idle, from the server about to stop.
      await page.locator('.Toastify').waitFor({ state: 'attached' });
      await stopApi();
      try {
        await page.getByRole('button', { name: 'Create voucher' }).click();
        await errorToast(page, 'Some error occurred. Please contact Admin.').first().waitFor();
        await expectVoucherFormKept(page, code);
      } finally {
        await startApi();
      }
      // The API is back: the very same input saves.
      await page.getByRole('button', { name: 'Create voucher' }).click();
      await waitForPath(page, LIST);
      expect(await createdCode(code)).toBe(true);
    },
    { timeout: 180_000 },
  );

  journey(
    'ERR-04 with the browser offline a save shows "No Internet Connection." and keeps the form',
    async ({ page, context, signIn }) => {
      const code = unique('OFF');
      await signIn(ADMIN);
      await page.goto(`${LIST}/add`);
      await page.getByRole('button', { name: 'Create voucher' }).waitFor();
      await fillVoucher(page, code);
      await context.setOffline(true);
      await page.getByRole('button', { name: 'Create voucher' }).click();
      await errorToast(page, 'No Internet Connection.').first().waitFor();
      expect(await toast(page, 'Some error occurred').count()).toBe(0);
      await expectVoucherFormKept(page, code);
      await context.setOffline(false);
      await page.getByRole('button', { name: 'Create voucher' }).click();
      await waitForPath(page, LIST);
      expect(await createdCode(code)).toBe(true);
    },
  );

  journey(
    'ERR-05 with the API stopped, signing in shows "Some error occurred. Please contact Admin." and keeps what was typed',
    async ({ page }) => {
      await page.goto('/auth/login');
      await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
      await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
      // The same server sends the console's files: what the sign-in screen loads ahead (the code that sends the
      // request among it, and the toasts' container, loaded once the screen is idle) must have arrived before it
      // stops, or the refusal tested here is of a missing file (shown then without a toast: plainAlert.ts).
      await page.waitForLoadState('networkidle');
      await page.locator('.Toastify').waitFor({ state: 'attached' });
      await stopApi();
      try {
        await page.getByLabel('Password', { exact: true }).press('Enter');
        await errorToast(page, 'Some error occurred. Please contact Admin.').first().waitFor();
        expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(ADMIN.email);
        expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe(ADMIN.password);
      } finally {
        await startApi();
      }
      await page.getByLabel('Password', { exact: true }).press('Enter');
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
    },
    { timeout: 180_000 },
  );

  journey(
    'ERR-04 offline, signing in shows "No Internet Connection." and keeps what was typed',
    async ({ page, context }) => {
      await page.goto('/auth/login');
      await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
      await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
      await context.setOffline(true);
      await page.getByLabel('Password', { exact: true }).press('Enter');
      await errorToast(page, 'No Internet Connection.').first().waitFor();
      expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(ADMIN.email);
      expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe(ADMIN.password);
      await context.setOffline(false);
      await page.getByLabel('Password', { exact: true }).press('Enter');
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
    },
  );

  journey(
    'ERR-04 offline before the deferred code arrived, signing in still says "No Internet Connection."',
    async ({ page, context }) => {
      // The HTTP client and the toast library load once the first screen is idle; here they never arrive.
      const deferredChunk = /\/assets\/(client|textToast|ToastHost)-[^/]*\.js$/;
      await page.route(deferredChunk, (route) => route.abort('internetdisconnected'));
      await page.goto('/auth/login');
      await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
      await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
      await context.setOffline(true);
      await page.getByLabel('Password', { exact: true }).press('Enter');
      await errorToast(page, 'No Internet Connection.').first().waitFor();
      expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe(ADMIN.password);
      await page.unroute(deferredChunk);
      await context.setOffline(false);
      await page.getByLabel('Password', { exact: true }).press('Enter');
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
    },
  );

  journey(
    "a screen's files that failed to arrive while offline (the idle preloading) arrive on the next try, styles included",
    async ({ page }) => {
      // The sign-in screen preloads the home screen's files once idle: here the home screen's code and the admin
      // layout's stylesheet fail as they would offline at that moment.
      const homeFiles = /\/assets\/(HomeScreen-[^/]*\.js|AdminLayout-[^/]*\.css)$/;
      const failed = new Set<string>();
      let bothFailed: () => void = () => undefined;
      const preloadFailed = new Promise<void>((resolve) => (bothFailed = resolve));
      await page.route(homeFiles, async (route) => {
        failed.add(new URL(route.request().url()).pathname.replace(/-[^-]*$/, ''));
        if (failed.size === 2) bothFailed();
        await route.abort('internetdisconnected');
      });
      await page.goto('/auth/login');
      await preloadFailed;
      await page.unroute(homeFiles);
      await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
      await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
      await page.getByLabel('Password', { exact: true }).press('Enter');
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      const layoutStyled = await page.evaluate(() =>
        [...document.styleSheets].some((sheet) => sheet.href?.includes('/assets/AdminLayout-')),
      );
      expect(layoutStyled).toBe(true);
    },
  );
});
