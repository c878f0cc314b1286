import type { Page } from 'playwright-core';
import { chooseRelated, field } from './ui.ts';

/** The trade upload form's file field, as its label reads. */
export const UPLOAD_FILE_LABEL = 'File (CSV, or CSV compressed with gzip)';

/** Fills the upload form for India's exports of `period` with a file on disk (its path) or in memory, ready to send. */
export async function fillInUpload(page: Page, period: string, file: string | { name: string; buffer: Buffer }): Promise<void> {
  await page.goto('/data-upload-management/uploads/add');
  await page.getByRole('heading', { name: 'Upload trade data' }).waitFor();
  await chooseRelated(page, 'Country', 'India');
  await field(page, 'Trade direction').selectOption({ label: 'Export' });
  await field(page, 'Period').fill(period);
  await field(page, UPLOAD_FILE_LABEL).setInputFiles(typeof file === 'string' ? file : { ...file, mimeType: 'text/csv' });
}
