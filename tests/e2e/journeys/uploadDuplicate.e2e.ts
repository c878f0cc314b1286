import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { OPERATOR } from '../support/accounts.ts';
import { Api, unique } from '../support/api.ts';
import { API_URL } from '../support/env.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { tradeCsv } from '../support/tradeCsv.ts';
import { sendFileOverHttp } from '../../../server/modules/uploads/testing/tusRequests.ts';
import { chooseRelated, errorToast, field, toast } from '../support/ui.ts';
import { chooseMonth, expectCleanSuccess, shownMonth, UPLOAD_FILE_LABEL } from '../support/uploadForm.ts';
import { publishEveryImport } from '../support/review.ts';

useBrowser();
publishEveryImport();

const PHONE = { width: 390, height: 844 };

/** The accessible name of the element that has the focus. */
const focusedName = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? null);

describe('the same trade file twice', () => {
  journey(
    'the upload form lists the columns a file needs, asks before importing a file already uploaded with the cancel as default, cancels the upload when declined, imports it once confirmed, and clears',
    async ({ page, signIn, audit }) => {
      // The operator's earlier upload of the same bytes for Germany, exports, 2025-01.
      const operator = await Api.login(OPERATOR.email, OPERATOR.password);
      const csv = tradeCsv(5);
      const countries = (
        await operator.get<{ data: { value: number; label: string }[] }>('countries/options?q=Germany')
      ).data;
      const ticket = await operator.post<{
        data: { upload: { id: number }; upload_url: string; complete_path: string };
      }>('uploads', {
        country_id: countries[0]!.value,
        trade_direction: 'export',
        period: '2025-01',
        file_name: 'germany-exports-2025-01.csv',
        size: Buffer.byteLength(csv.text),
      });
      await sendFileOverHttp(API_URL, ticket.data.upload_url, csv.text);
      await operator.post(ticket.data.complete_path, {});
      const fileName = `${unique('again-').toLowerCase()}.csv`;
      const uploadsOfFile = async () =>
        (
          await operator.get<{ data: Array<{ id: number; file_name: string; status: string }> }>(
            'uploads?_page=1&_page_size=100',
          )
        ).data.filter((upload) => upload.file_name === fileName);

      await signIn(OPERATOR);
      const ask = async () => {
        await page.getByRole('button', { name: 'Upload' }).click();
        const dialog = page.getByRole('dialog', { name: 'Import this file again?' });
        await dialog
          .getByText(new RegExp(`already uploaded .* by Omar Operator \\(upload ${ticket.data.upload.id}\\)`))
          .waitFor();
        return dialog;
      };

      // On a phone: the period is a month and a year, read as such; the form asks before importing the same bytes.
      await page.setViewportSize(PHONE);
      await page.goto('/data-upload-management/uploads/add');
      await page.getByRole('heading', { name: 'Upload trade data' }).waitFor();
      await page.getByText('Choose a trade direction to see the columns its CSV file needs.').waitFor();
      await chooseRelated(page, 'Country', 'Germany');
      await field(page, 'Trade direction').selectOption({ label: 'Export' });
      await page
        .getByText(
          /^The first row of the CSV file names its columns\. Required: shipment_date, hs_code, product_description, quantity, unit, value\./,
        )
        .waitFor();
      expect(await shownMonth(page, 'Period')).toBe('Month Year');
      await chooseMonth(page, 'Period', '2025-01');
      expect(await shownMonth(page, 'Period')).toBe('January 2025');
      await audit('upload form with a month chosen at 390 px');
      await field(page, UPLOAD_FILE_LABEL).setInputFiles({
        name: fileName,
        mimeType: 'text/csv',
        buffer: Buffer.from(csv.text),
      });

      let dialog = await ask();
      await audit('duplicate upload confirmation at 390 px');
      // One event, one message: the dialog asks, and no "Error" toast says the same behind it.
      expect(await errorToast(page, /./).count()).toBe(0);
      // The safe answer is the default: it has the focus, so Enter imports nothing.
      expect(await focusedName(page)).toBe('Cancel the upload');
      await dialog.getByRole('button', { name: 'Cancel the upload' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /^Upload \d+ was cancelled: nothing of .+ was imported\.$/ })
        .waitFor();
      // Declined: the upload is cancelled, none is left waiting for its file; the form keeps what was chosen.
      const declined = await uploadsOfFile();
      expect(declined.map((upload) => upload.status)).toEqual(['cancelled']);
      expect(await shownMonth(page, 'Period')).toBe('January 2025');
      expect(await field(page, UPLOAD_FILE_LABEL).evaluate((input: HTMLInputElement) => input.files?.[0]?.name)).toBe(
        fileName,
      );
      expect(await page.getByText('* This field is required').count()).toBe(0);

      // Enter, on the default, declines too; at 1280 px the dialog and its default are the same.
      await page.setViewportSize({ width: 1280, height: 800 });
      dialog = await ask();
      expect(await focusedName(page)).toBe('Cancel the upload');
      await audit('duplicate upload confirmation at 1280 px');
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'detached' });
      await expect
        .poll(async () => (await uploadsOfFile()).map((upload) => upload.status))
        .toEqual(['cancelled', 'cancelled']);

      // Confirmed, on a phone: the result at the top, the form clean for the next file.
      await page.setViewportSize(PHONE);
      dialog = await ask();
      await dialog.getByRole('button', { name: 'Import again' }).click();
      await expectCleanSuccess(page, fileName);
      // The result says it once, at the top: no toast repeats it.
      expect(await toast(page, /./).count()).toBe(0);
      const statusPanel = page.getByRole('region', { name: fileName });
      await statusPanel.getByRole('status').filter({ hasText: 'Published' }).waitFor({ timeout: 60_000 });
      await audit('upload result at 390 px');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      const statuses = (await uploadsOfFile()).map((upload) => upload.status).sort();
      expect(statuses).toEqual(['cancelled', 'cancelled', 'published']);
    },
    { timeout: 120_000 },
  );
});
