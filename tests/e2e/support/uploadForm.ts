import type { Page } from 'playwright-core';
import { chooseRelated, eventually, field } from './ui.ts';

/** The trade upload form's file field, as its label reads. */
export const UPLOAD_FILE_LABEL = 'File (CSV, or CSV compressed with gzip)';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** Chooses a period ("2026-10") in a month field: its month select, which the label names, and its year select. */
export async function chooseMonth(page: Page, label: string, period: string): Promise<void> {
  const [year, month] = period.split('-');
  await field(page, label).selectOption({ label: MONTHS[Number(month) - 1]! });
  await page.getByRole('combobox', { name: `${label} year`, exact: true }).selectOption(year!);
}

/** What a month field shows: "October 2026", or "Month Year" when nothing is chosen. */
export async function shownMonth(page: Page, label: string): Promise<string> {
  const shown = (select: ReturnType<Page['getByRole']>) =>
    select.evaluate((element: HTMLSelectElement) => element.selectedOptions[0]?.textContent ?? '');
  return `${await shown(field(page, label))} ${await shown(page.getByRole('combobox', { name: `${label} year`, exact: true }))}`;
}

/** Fills the upload form for India's exports of `period` with a file on disk (its path) or in memory, ready to send. */
export async function fillInUpload(
  page: Page,
  period: string,
  file: string | { name: string; buffer: Buffer },
): Promise<void> {
  await page.goto('/data-upload-management/uploads/add');
  await page.getByRole('heading', { name: 'Upload trade data' }).waitFor();
  await chooseRelated(page, 'Country', 'India');
  await field(page, 'Trade direction').selectOption({ label: 'Export' });
  await chooseMonth(page, 'Period', period);
  await field(page, UPLOAD_FILE_LABEL).setInputFiles(
    typeof file === 'string' ? file : { ...file, mimeType: 'text/csv' },
  );
}

/**
 * The form's state after an accepted upload: the result of `fileName` above the form, focused and within the
 * viewport, and the form emptied with no field in error and no failure said.
 */
export async function expectCleanSuccess(page: Page, fileName: string): Promise<void> {
  const result = page.getByRole('group', {
    name: new RegExp(`^${fileName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was received as upload \\d+\\.$`),
  });
  await result.waitFor();
  await eventually(
    () => result.evaluate((element) => element === document.activeElement),
    (focused) => focused,
    5_000,
    'the upload result to have the focus',
  );
  const box = await result.boundingBox();
  const viewport = page.viewportSize()!;
  if (!box || box.y < 0 || box.y > viewport.height / 2)
    throw new Error(`the upload result is not at the top of the viewport: ${JSON.stringify(box)}`);
  const errors = await page.getByText('* This field is required').count();
  const alerts = await page.locator('.form-alert').count();
  if (errors + alerts > 0)
    throw new Error(`the emptied form shows ${errors} required-field errors and ${alerts} alerts`);
  if ((await page.getByRole('combobox', { name: /^Country/ }).inputValue()) !== '')
    throw new Error('the country was not emptied');
  if ((await shownMonth(page, 'Period')) !== 'Month Year') throw new Error('the period was not emptied');
  if ((await field(page, UPLOAD_FILE_LABEL).evaluate((input: HTMLInputElement) => input.files?.length ?? 0)) !== 0)
    throw new Error('the file was not emptied');
}
