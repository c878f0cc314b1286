import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { shipmentLines, shipmentsCsv } from '../../../server/modules/uploads/testing/tradeCsv.ts';
import { sendFileOverHttp } from '../../../server/modules/uploads/testing/tusRequests.ts';
import { OPERATOR } from '../support/accounts.ts';
import { Api } from '../support/api.ts';
import { API_URL } from '../support/env.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { auditBothWidths, eventually } from '../support/ui.ts';
import { fillInUpload } from '../support/uploadForm.ts';
import { publishEveryImport } from '../support/review.ts';

useBrowser();
publishEveryImport();

const UPLOADS = '/data-upload-management/uploads';
/** Enough shipments that their import runs for many seconds on any machine: the journey acts while it runs. */
const LONG_IMPORT_ROWS = 2_000_000;

/** How far the upload's panel says its file has been read (0 to 1), or null while it shows no bar. */
async function fileRead(page: Page, fileName: string): Promise<number | null> {
  const bar = page.getByRole('region', { name: fileName }).getByRole('progressbar', { name: 'File read' });
  if ((await bar.count()) === 0) return null;
  return bar.evaluate((element: HTMLProgressElement) => element.value).catch(() => null);
}

/** The uploads whose records the report's page shows ("Upload 12" in each row), in the order met. */
async function uploadsOnPage(page: Page): Promise<string[]> {
  const cells = await page
    .locator('table.data-table tbody tr')
    .evaluateAll((rows) =>
      rows.map(
        (row) =>
          Array.from((row as HTMLTableRowElement).cells, (cell) => cell.textContent?.trim() ?? '').find((text) =>
            /^Upload \d+$/.test(text),
          ) ?? '?',
      ),
    );
  return [...new Set(cells)];
}

/** Uploads a file for India's exports of `period` through the API and waits for it to be published; its id. */
async function publishedThroughApi(api: Api, period: string, fileName: string, text: string): Promise<number> {
  const countries = (await api.get<{ data: { value: number; label: string }[] }>('countries/options?q=India')).data;
  const ticket = await api.post<{ data: { upload: { id: number }; upload_url: string; complete_path: string } }>(
    'uploads',
    {
      country_id: countries[0]!.value,
      trade_direction: 'export',
      period,
      file_name: fileName,
      size: Buffer.byteLength(text),
    },
  );
  await sendFileOverHttp(API_URL, ticket.data.upload_url, text);
  await api.post(ticket.data.complete_path, {});
  const id = ticket.data.upload.id;
  await eventually(
    () => api.get<{ data: { status: string } }>(`uploads/${id}`),
    (answer) => answer.data.status === 'published',
    60_000,
    `upload ${id} published`,
  );
  return id;
}

describe('an import followed while it runs', () => {
  let folder: string;
  let longFile: string;
  const longName = 'india-exports-long-import.csv';

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'import-live-'));
    longFile = join(folder, longName);
    await pipeline(Readable.from(shipmentLines(LONG_IMPORT_ROWS, '2024-06')), createWriteStream(longFile));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  journey(
    'the import shows its progress live, on the upload and in the uploads list of another tab, and a cancel ends it with nothing imported',
    async ({ page, context, signIn, audit }) => {
      await signIn(OPERATOR);
      await fillInUpload(page, '2024-06', longFile);
      await page.getByRole('button', { name: 'Upload' }).click();

      // The bar of the file read appears, then moves: progress is live, not a final figure.
      const first = await eventually(
        () => fileRead(page, longName),
        (value) => value !== null && value > 0,
        120_000,
        'the file read bar',
      );
      await eventually(
        () => fileRead(page, longName),
        (value) => value !== null && value > first!,
        60_000,
        'the file read bar moving',
      );
      const panel = page.getByRole('region', { name: longName });
      await expect.poll(() => panel.getByText(/\d[\d,]* rows \([\d,]+ accepted, 0 rejected\)/).count()).toBe(1);

      // Another tab: the uploads list shows the same import's progress in its Status cell.
      const list = await context.newPage();
      await list.goto(UPLOADS);
      const row = list.locator('tbody tr').filter({ hasText: longName });
      await row.getByRole('progressbar', { name: /^Processing: \d+% of the file read$/ }).waitFor({ timeout: 30_000 });
      await audit('uploads list with an import running', list);

      await panel.getByRole('button', { name: 'Cancel the import' }).click();
      await panel.getByRole('status').filter({ hasText: 'Cancelled' }).waitFor({ timeout: 60_000 });
      // The list's tab follows by itself: its cell ends as Cancelled, with no bar.
      await row.getByText('Cancelled', { exact: true }).waitFor({ timeout: 30_000 });
      expect(await row.getByRole('progressbar').count()).toBe(0);

      const operator = await Api.login(OPERATOR.email, OPERATOR.password);
      const uploads = await operator.get<{ data: Array<{ id: number; file_name: string; status: string }> }>(
        'uploads?_page=1&_page_size=100',
      );
      const cancelled = uploads.data.find((upload) => upload.file_name === longName)!;
      expect(cancelled.status).toBe('cancelled');
      const records = await operator.get<{ data: unknown[] }>(
        `uploaded-data-report?upload_id=${cancelled.id}&_page_size=5`,
      );
      expect(records.data).toHaveLength(0);
    },
    { timeout: 300_000 },
  );

  journey(
    'a corrected file replaces the published month while another tab pages through it: each page shows one upload, then only the new one',
    async ({ page, context, signIn, audit }) => {
      const period = '2024-07';
      const operator = await Api.login(OPERATOR.email, OPERATOR.password);
      const original = await publishedThroughApi(
        operator,
        period,
        'india-exports-2024-07.csv',
        shipmentsCsv(150, period),
      );

      await signIn(OPERATOR);
      const reader = await context.newPage();
      await reader.goto(`/data-upload-management/uploaded-data-report?period=${period}&size=20`);
      await reader.locator('table.data-table tbody tr').first().waitFor();
      expect(await uploadsOnPage(reader)).toEqual([`Upload ${original}`]);
      await reader.getByRole('button', { name: 'Next page' }).click();
      await expect.poll(() => reader.getByText(/^21–40 of /).count()).toBe(1);
      expect(await uploadsOnPage(reader)).toEqual([`Upload ${original}`]);

      // The corrected file, through the form: the console asks what it is for, and the operator replaces the month.
      const correctedName = 'india-exports-2024-07-corrected.csv';
      await fillInUpload(page, period, {
        name: correctedName,
        buffer: Buffer.from(shipmentsCsv(90, period).replace(/grade /g, 'grade corrected ')),
      });
      await page.getByRole('button', { name: 'Upload' }).click();
      const dialog = page.getByRole('dialog', { name: 'This month is already published' });
      await dialog
        .getByText(new RegExp(`already published: upload ${original} \\(india-exports-2024-07\\.csv, 150 rows\\)`))
        .waitFor();
      await auditBothWidths(page, audit, 'published month question');
      await dialog.getByRole('button', { name: 'Replace them' }).click();

      // While it is processed and published, the other tab keeps paging: every page is one upload's, never a mix.
      const statusPanel = page.getByRole('region', { name: correctedName });
      const seen: string[][] = [];
      for (
        let turn = 0;
        turn < 40 && !(await statusPanel.getByRole('status').filter({ hasText: 'Published' }).count());
        turn += 1
      ) {
        await reader.reload();
        await reader.locator('table.data-table tbody tr').first().waitFor();
        seen.push(await uploadsOnPage(reader));
      }
      await statusPanel.getByRole('status').filter({ hasText: 'Published' }).waitFor({ timeout: 60_000 });
      for (const uploads of seen) expect(uploads).toHaveLength(1);

      const uploads = await operator.get<{ data: Array<{ id: number; file_name: string; status: string }> }>(
        'uploads?_page=1&_page_size=100',
      );
      const corrected = uploads.data.find((upload) => upload.file_name === correctedName)!;
      expect(uploads.data.find((upload) => upload.id === original)?.status).toBe('replaced');
      // The month from its first page: the corrected upload's 90 records alone.
      await reader.goto(`/data-upload-management/uploaded-data-report?period=${period}&size=20`);
      await reader.getByText(/^1–20 of 90$/).waitFor();
      expect(await uploadsOnPage(reader)).toEqual([`Upload ${corrected.id}`]);
      await reader.getByRole('button', { name: 'Next page' }).click();
      await reader.getByText(/^21–40 of 90$/).waitFor();
      expect(await uploadsOnPage(reader)).toEqual([`Upload ${corrected.id}`]);

      // The uploads list says what became of the first upload.
      await page.goto(UPLOADS);
      await page
        .locator('tbody tr')
        .filter({ hasText: 'india-exports-2024-07.csv' })
        .getByText('Replaced by a later upload')
        .waitFor();
    },
    { timeout: 240_000 },
  );
});
