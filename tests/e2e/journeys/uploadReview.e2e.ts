import { describe, expect } from 'vitest';
import { sendFileOverHttp } from '../../../server/modules/uploads/testing/tusRequests.ts';
import { OPERATOR } from '../support/accounts.ts';
import { Api, unique } from '../support/api.ts';
import { API_URL } from '../support/env.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { tradeCsv } from '../support/tradeCsv.ts';
import { auditBothWidths, eventually, toast } from '../support/ui.ts';

useBrowser();

const LIST = '/data-upload-management/uploads';

/** Sends a month of trade data as the upload screen does (ticket, file, complete) and waits for its import to end. */
async function upload(
  api: Api,
  countryId: number,
  period: string,
  text: string,
): Promise<{ id: number; status: string }> {
  const ticket = await api.post<{ data: { upload: { id: number }; upload_url: string; complete_path: string } }>(
    'uploads',
    {
      country_id: countryId,
      trade_direction: 'import',
      period,
      file_name: `${unique('review-').toLowerCase()}-${period}.csv`,
      size: Buffer.byteLength(text),
    },
  );
  await sendFileOverHttp(API_URL, ticket.data.upload_url, text);
  await api.raw('POST', ticket.data.complete_path, {});
  const id = ticket.data.upload.id;
  return eventually(
    async () => (await api.get<{ data: { id: number; status: string } }>(`uploads/${id}`)).data,
    (found) => !['pending', 'processing'].includes(found.status),
    60_000,
    `upload ${id} imported`,
  );
}

describe('review before publishing', () => {
  journey(
    'a normal month publishes at once; the next, 95% smaller, waits in review with its checks and months until a reviewer publishes it, and then the report shows it',
    async ({ page, signIn, audit }) => {
      const operator = await Api.login(OPERATOR.email, OPERATOR.password);
      const countries = (await operator.get<{ data: { value: number }[] }>('countries/options')).data;
      // A country and direction no other journey uploads: the first month has nothing before it.
      const countryId = countries.at(-2)!.value;
      const october = await upload(operator, countryId, '2026-10', tradeCsv(400).text);
      expect(october.status).toBe('published');
      const small = tradeCsv(20).text.replaceAll('2026-10-', '2026-11-');
      const november = await upload(operator, countryId, '2026-11', small);
      expect(november.status).toBe('needs_review');
      // Not published: the report has none of its records.
      const report = (id: number) => operator.get<{ data: unknown[] }>(`uploaded-data-report?upload_id=${id}`);
      expect((await report(november.id)).data).toEqual([]);
      expect((await report(october.id)).data.length).toBeGreaterThan(0);

      await signIn(OPERATOR);
      await page.goto(`${LIST}/${november.id}`);
      await page.getByRole('heading', { level: 1, name: `Upload ${november.id}` }).waitFor();
      await page.getByText('Waiting for review').first().waitFor();
      const panel = page.getByRole('region', { name: 'Checks before publishing' });
      await panel.waitFor();
      expect(await panel.textContent()).toContain('Compared with Oct 2026');
      const rowCount = panel.getByRole('row').filter({ hasText: 'Beyond the limit' }).first();
      expect(await rowCount.textContent()).toMatch(/fell by 9\d%/);
      // The months before, this one last, in the table behind each chart.
      await panel.getByText('Show the numbers').first().click();
      const months = panel.getByRole('table', { name: /Accepted rows by month/ }).getByRole('row');
      await months.filter({ hasText: 'Nov 2026' }).waitFor();
      expect(await months.filter({ hasText: 'Oct 2026' }).count()).toBe(1);
      await auditBothWidths(page, audit, 'an upload waiting for review');

      await panel.getByRole('button', { name: 'Publish' }).click();
      const dialog = page.getByRole('dialog', { name: 'Publish this upload?' });
      await dialog.getByRole('textbox', { name: /^Reason/ }).fill('A short month: the port was closed for a week.');
      await audit('the publish dialog');
      await dialog.getByRole('button', { name: 'Publish' }).click();
      await toast(page, 'The upload is published.').waitFor();
      await panel.getByText(/^Published on .*: “A short month: the port was closed for a week\.”$/).waitFor();
      expect(await panel.getByRole('button', { name: 'Publish' }).count()).toBe(0);

      // Now customers read it: the link to its records opens the report with them.
      await page.getByRole('link', { name: /records in the Uploaded Data Report$/ }).click();
      await page.locator('main table tbody tr').first().waitFor({ timeout: 15_000 });
      expect((await report(november.id)).data.length).toBeGreaterThan(0);
    },
    { timeout: 240_000 },
  );
});
