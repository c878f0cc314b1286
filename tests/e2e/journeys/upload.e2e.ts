import { describe, expect } from 'vitest';
import { OPERATOR } from '../support/accounts.ts';
import { Api, unique } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { tradeCsv } from '../support/tradeCsv.ts';
import { chooseRelated, field, recordApiCalls, waitForPath } from '../support/ui.ts';
import { chooseMonth, expectCleanSuccess, shownMonth } from '../support/uploadForm.ts';
import { publishEveryImport } from '../support/review.ts';

useBrowser();
publishEveryImport();

const LIST = '/data-upload-management/uploads';

describe('data upload', () => {
  journey(
    'NOTIF-01 NOTIF-03 NOTIF-04 NOTIF-05 NOTIF-08 a CSV with bad lines uploads with progress, logs its rejected lines, then notifies with the badge dot until Mark All Read',
    async ({ page, context, signIn, audit }) => {
      const operator = await Api.login(OPERATOR.email, OPERATOR.password);
      await operator.post('notification/mark-all-as-read', {});
      const csv = tradeCsv(1500);
      const fileName = `${unique('october-').toLowerCase()}.csv`;

      // The page's clock runs normally; it is only moved on past the 30 s notification poll (NOTIF-06).
      await context.clock.install();
      await signIn(OPERATOR);
      const calls = recordApiCalls(page);
      await page.goto(LIST);
      await page.getByRole('heading', { name: 'Data Uploads' }).waitFor();
      const bell = page.getByRole('button', { name: /^Notifications/ });
      const badge = page.getByRole('img', { name: 'unread notifications' });
      await bell.waitFor();
      expect(await badge.count()).toBe(0);
      await audit('upload list');

      await page.getByRole('link', { name: 'Add Data Upload' }).click();
      await waitForPath(page, `${LIST}/add`);
      await page.getByRole('heading', { name: 'Upload trade data' }).waitFor();
      await page.getByRole('button', { name: 'Upload' }).click();
      await expect.poll(() => page.getByText('* This field is required').count()).toBe(4);
      await audit('upload form with errors');

      await chooseRelated(page, 'Country', 'India');
      await field(page, 'Trade direction').selectOption({ label: 'Import' });
      // The period reads as a month, whatever the browser's locale: "Month Year" until chosen, then "October 2026".
      expect(await shownMonth(page, 'Period')).toBe('Month Year');
      await chooseMonth(page, 'Period', '2026-10');
      expect(await shownMonth(page, 'Period')).toBe('October 2026');
      await field(page, 'File (CSV, or CSV compressed with gzip)').setInputFiles({
        name: fileName,
        mimeType: 'text/csv',
        buffer: Buffer.from(csv.text),
      });

      // A slow uplink (64 KiB/s for ~170 KB), so the progress bar has time to move; every value it shows is kept.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 20,
        downloadThroughput: -1,
        uploadThroughput: 64 * 1024,
      });
      await page.evaluate(() => {
        const seen: number[] = [];
        (window as unknown as { __progress: number[] }).__progress = seen;
        const record = () => {
          const bar = document.querySelector<HTMLProgressElement>('progress[aria-label="Upload progress"]');
          if (bar && bar.hasAttribute('value')) seen.push(bar.value);
        };
        new MutationObserver(record).observe(document.body, {
          subtree: true,
          childList: true,
          attributes: true,
          attributeFilter: ['value'],
        });
      });
      await page.getByRole('button', { name: 'Upload' }).click();
      await page.getByRole('progressbar', { name: 'Upload progress' }).waitFor();
      await page.getByRole('progressbar', { name: 'Upload progress' }).waitFor({ state: 'detached', timeout: 30_000 });
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
      const progress = await page.evaluate(() => (window as unknown as { __progress: number[] }).__progress);
      expect(
        progress.some((value) => value > 0 && value < 1),
        `progress values ${JSON.stringify(progress)}`,
      ).toBe(true);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));

      // Processing runs on the server; the screen follows it to the end and lists the rejected lines.
      const statusPanel = page.getByRole('region', { name: fileName });
      // The result at the top, focused and in view; the form below empty and untouched, with no field in error.
      await expectCleanSuccess(page, fileName);
      await statusPanel.getByRole('status').filter({ hasText: 'Published' }).waitFor({ timeout: 60_000 });
      const stat = (label: string) =>
        statusPanel
          .locator('.stat')
          .filter({ has: page.getByText(label, { exact: true }) })
          .locator('dd');
      expect(Number(await stat('Rows').textContent())).toBe(csv.rows);
      expect(Number(await stat('Accepted').textContent())).toBe(csv.rows - csv.bad.length);
      expect(Number(await stat('Rejected').textContent())).toBe(csv.bad.length);
      const rejectedRows = statusPanel.getByRole('table', { name: 'Rejected lines' }).getByRole('row');
      await expect.poll(() => rejectedRows.count()).toBe(csv.bad.length + 1);
      for (const [index, bad] of csv.bad.entries()) {
        const cells = rejectedRows.nth(index + 1).getByRole('cell');
        expect(Number(await cells.nth(0).textContent())).toBe(bad.line);
        expect(await cells.nth(1).textContent()).toContain(bad.column);
      }
      await audit('upload processing log');

      // The notification arrives with the next poll: the badge dot shows.
      await page.clock.fastForward(31_000);
      await badge.waitFor({ timeout: 10_000 });
      await bell.click();
      await page.getByRole('heading', { name: 'All Notifications' }).waitFor();
      const message = page.locator('.notification-message').filter({ hasText: fileName });
      await message.waitFor();
      expect(await message.locator('b').textContent()).toBe(fileName);
      expect(await message.textContent()).toContain(
        `${csv.rows - csv.bad.length} row(s) accepted, ${csv.bad.length} rejected`,
      );
      await audit('notifications with an upload notification');

      // Mark All Read empties the list and takes the dot away.
      await page.getByRole('button', { name: 'Mark All Read' }).click();
      await page.getByText('No new notifications available.').waitFor();
      await badge.waitFor({ state: 'detached' });
      const markAll = calls.filter((call) => call.method === 'POST' && call.path === 'notification/mark-all-as-read');
      expect(markAll).toHaveLength(1);
      expect(JSON.parse(markAll[0]!.body ?? 'null')).toEqual({});
      const lastList = calls.filter((call) => call.method === 'GET' && call.path === 'notification').at(-1)!;
      expect(calls.indexOf(lastList)).toBeGreaterThan(calls.indexOf(markAll[0]!));
      expect(Object.fromEntries(lastList.query)).toEqual({ is_read: 'false', _page: '1', _page_size: '8' });
      const unread = await operator.get<{ data: unknown[] }>('notification?is_read=false&_page=1&_page_size=8');
      expect(unread.data).toEqual([]);

      // The upload's detail keeps its log and its History: who uploaded it and what the import made of it.
      const uploads = await operator.get<{ data: Array<{ id: number; file_name: string }> }>(
        'uploads?_page=1&_page_size=100',
      );
      const upload = uploads.data.find((candidate) => candidate.file_name === fileName)!;
      await page.goto(`${LIST}/${upload.id}`);
      await page.getByRole('heading', { level: 1, name: `Upload ${upload.id}` }).waitFor();
      await page.getByRole('region', { name: fileName }).getByRole('status').filter({ hasText: 'Published' }).waitFor();
      await page.getByRole('button', { name: 'History' }).click();
      const imported = page.getByRole('listitem').filter({ hasText: 'Imported' });
      await imported.first().waitFor();
      expect(await imported.first().textContent()).toContain(`by ${OPERATOR.email}`);
      expect(await page.getByRole('button', { name: /^Restore this version/ }).count()).toBe(0);
      await audit('upload detail with its history');
    },
    { timeout: 180_000 },
  );
});
