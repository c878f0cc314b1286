import { describe, expect } from 'vitest';
import { OPERATOR } from '../support/accounts.ts';
import { Api, unique } from '../support/api.ts';
import { API_URL } from '../support/env.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { tradeCsv } from '../support/tradeCsv.ts';
import { sendFileOverHttp } from '../../../server/modules/uploads/testing/tusRequests.ts';
import { chooseRelated, errorToast, field, toast } from '../support/ui.ts';

useBrowser();

describe('the same trade file twice', () => {
  journey('the upload form lists the columns a file needs, asks before importing a file already uploaded, imports it once confirmed, and clears', async ({ page, signIn, audit }) => {
    // The operator's earlier upload of the same bytes for Germany, exports, 2025-01.
    const operator = await Api.login(OPERATOR.email, OPERATOR.password);
    const csv = tradeCsv(5);
    const countries = (await operator.get<{ data: { value: number; label: string }[] }>('countries/options?q=Germany')).data;
    const ticket = await operator.post<{ data: { upload: { id: number }; upload_url: string; complete_path: string } }>('uploads', {
      country_id: countries[0]!.value,
      trade_direction: 'export',
      period: '2025-01',
      file_name: 'germany-exports-2025-01.csv',
      size: Buffer.byteLength(csv.text),
    });
    await sendFileOverHttp(API_URL, ticket.data.upload_url, csv.text);
    await operator.post(ticket.data.complete_path, {});

    await signIn(OPERATOR);
    await page.goto('/data-upload-management/uploads/add');
    await page.getByRole('heading', { name: 'Upload trade data' }).waitFor();
    await page.getByText('Choose a trade direction to see the columns its CSV file needs.').waitFor();
    await chooseRelated(page, 'Country', 'Germany');
    await field(page, 'Trade direction').selectOption({ label: 'Export' });
    await page.getByText(/^The first row of the CSV file names its columns\. Required: shipment_date, hs_code, product_description, quantity, unit, value\./).waitFor();
    await field(page, 'Period').fill('2025-01');
    const fileName = `${unique('again-').toLowerCase()}.csv`;
    await field(page, 'File (CSV, or CSV compressed with gzip)').setInputFiles({ name: fileName, mimeType: 'text/csv', buffer: Buffer.from(csv.text) });
    await page.getByRole('button', { name: 'Upload' }).click();

    const dialog = page.getByRole('dialog', { name: 'Import this file again?' });
    await dialog.getByText(new RegExp(`already uploaded .* by Omar Operator \\(upload ${ticket.data.upload.id}\\)`)).waitFor();
    await audit('duplicate upload confirmation');
    // One event, one message: the dialog asks, and no "Error" toast says the same behind it.
    expect(await errorToast(page, /./).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Import again' }).click();
    // The server's own message says the file arrived, once.
    await expect.poll(() => toast(page, 'The file was received and is being processed.').count()).toBe(1);
    const statusPanel = page.getByRole('region', { name: fileName });
    await statusPanel.getByRole('status').filter({ hasText: 'Completed' }).waitFor({ timeout: 60_000 });
    expect(await page.getByRole('combobox', { name: /^Country/ }).inputValue()).toBe('');
    expect(await field(page, 'Period').inputValue()).toBe('');
    expect(await field(page, 'File (CSV, or CSV compressed with gzip)').evaluate((input: HTMLInputElement) => input.files?.length ?? 0)).toBe(0);
  });
});
