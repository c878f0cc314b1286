import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { OPERATOR } from '../support/accounts.ts';
import { Api } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { writeLargeTradeCsv, type LargeTradeCsv } from '../support/tradeCsv.ts';
import { field } from '../support/ui.ts';
import { UPLOAD_FILE_LABEL, fillInUpload } from '../support/uploadForm.ts';
import { publishEveryImport } from '../support/review.ts';

useBrowser();
publishEveryImport();

const FILE_BYTES = 300 * 1000 * 1000;
/**
 * The uplink while the file starts: slow enough that a break lands mid-file on any machine (a chunk of the console's
 * 32 MiB takes about a second), fast enough that 300 MB takes seconds, not minutes.
 */
const UPLINK_BYTES_PER_SECOND = 32 * 1024 * 1024;

/** One request of the file's tus endpoint as the page made it, with what the server answered. */
interface FileRequest {
  method: string;
  /** `Upload-Offset` sent (PATCH), or answered (HEAD, PATCH); null when there is none. */
  sentOffset: number | null;
  status: number | null;
  answeredOffset: number | null;
  failed: boolean;
}

/** The requests the page makes to the file's signed URL, in order, as they end (answered or failed). */
function logFileRequests(page: Page): FileRequest[] {
  const log: FileRequest[] = [];
  const isFileRequest = (url: string) => /\/api\/v1\/uploads\/\d+\/file/.test(new URL(url).pathname);
  const offsetOf = (headers: Record<string, string>) =>
    headers['upload-offset'] === undefined ? null : Number(headers['upload-offset']);
  page.on('requestfinished', async (request) => {
    if (!isFileRequest(request.url())) return;
    const entry: FileRequest = {
      method: request.method(),
      sentOffset: offsetOf(request.headers()),
      status: null,
      answeredOffset: null,
      failed: false,
    };
    log.push(entry);
    const response = await request.response();
    entry.status = response?.status() ?? null;
    entry.answeredOffset = response ? offsetOf(await response.allHeaders()) : null;
  });
  page.on('requestfailed', (request) => {
    if (isFileRequest(request.url()))
      log.push({
        method: request.method(),
        sentOffset: offsetOf(request.headers()),
        status: null,
        answeredOffset: null,
        failed: true,
      });
  });
  return log;
}

/**
 * The page's network as DevTools emulates it (one session for all of it: the conditions of two sessions do not add up):
 * `uplink` bytes per second (null: unlimited), or no network at all, which the page also sees as `navigator.onLine`.
 */
async function emulateNetwork(cdp: CDPSession, conditions: { offline: boolean; uplink: number | null }): Promise<void> {
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: conditions.offline,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: conditions.uplink ?? -1,
  });
}

/** The upload's outcome once imported: every line of the file counted. */
async function expectWholeFileImported(page: Page, file: LargeTradeCsv, fileName: string): Promise<void> {
  const statusPanel = page.getByRole('region', { name: fileName });
  await statusPanel.getByRole('status').filter({ hasText: 'Published' }).waitFor({ timeout: 120_000 });
  const stat = (label: string) =>
    statusPanel
      .locator('.stat')
      .filter({ has: page.getByText(label, { exact: true }) })
      .locator('dd');
  expect(Number(await stat('Rows').textContent())).toBe(file.rows);
  expect(Number(await stat('Accepted').textContent())).toBe(file.accepted);
  expect(Number(await stat('Rejected').textContent())).toBe(file.rows - file.accepted);
}

describe('a large trade file sent in resumable chunks', () => {
  let folder: string;
  let file: LargeTradeCsv;
  const fileName = 'india-exports-large.csv';

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'large-upload-'));
    file = await writeLargeTradeCsv(join(folder, fileName), FILE_BYTES);
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  /** The SHA-256 the server recorded when it accepted the upload of `period` (its audit entry), and the upload's id. */
  const acceptedHash = async (period: string) => {
    const operator = await Api.login(OPERATOR.email, OPERATOR.password);
    const uploads = await operator.get<{ data: Array<{ id: number; period: string; file_name: string }> }>(
      'uploads?_page=1&_page_size=100',
    );
    const upload = uploads.data.find((candidate) => candidate.file_name === fileName && candidate.period === period)!;
    const history = await operator.get<{ data: Array<{ action: string; details: { sha256?: string } }> }>(
      `uploads/${upload.id}/history`,
    );
    return history.data.find((entry) => entry.action === 'upload')?.details.sha256;
  };

  journey(
    'a 300 MB file whose connection drops mid-file resumes by itself from the offset the server has, and arrives whole',
    async ({ page, context, signIn }) => {
      await signIn(OPERATOR);
      const requests = logFileRequests(page);
      await fillInUpload(page, '2024-03', file.path);
      const network = await context.newCDPSession(page);
      await emulateNetwork(network, { offline: false, uplink: UPLINK_BYTES_PER_SECOND });
      await page.getByRole('button', { name: 'Upload' }).click();

      // A first chunk stored (the server's offset is past zero), then the connection drops mid-file.
      await expect
        .poll(() => requests.filter((request) => request.method === 'PATCH' && request.status === 204).length, {
          timeout: 60_000,
        })
        .toBeGreaterThan(0);
      await emulateNetwork(network, { offline: true, uplink: null });
      await page.getByText(/Sending stopped: the connection to the server was lost/).waitFor();
      expect(
        await page
          .getByRole('progressbar', { name: 'Upload progress' })
          .evaluate((bar: HTMLProgressElement) => bar.value),
      ).toBeLessThan(1);
      const dropped = requests.length;
      expect(requests.at(-1)).toMatchObject({ method: 'PATCH', failed: true });

      // Back online: no click needed; the console asks the server how much it has and sends only the rest.
      await emulateNetwork(network, { offline: false, uplink: null });
      await expectWholeFileImported(page, file, fileName);
      const afterDrop = requests.slice(dropped);
      const offsetAsked = afterDrop.find((request) => request.method === 'HEAD');
      expect(offsetAsked?.status).toBe(200);
      expect(offsetAsked!.answeredOffset).toBeGreaterThan(0);
      const resumed = afterDrop.find((request) => request.method === 'PATCH');
      expect(resumed?.sentOffset).toBe(offsetAsked!.answeredOffset);
      expect(requests.filter((request) => request.method === 'POST')).toHaveLength(1);
      expect(
        requests.filter((request) => request.method === 'PATCH' && request.status === 204).at(-1)?.answeredOffset,
      ).toBe(file.bytes);
      expect(await acceptedHash('2024-03')).toBe(file.sha256);
    },
    { timeout: 240_000 },
  );

  journey(
    'a reload mid-file, then the same file picked again, resumes the upload from the offset the server has',
    async ({ page, context, signIn }) => {
      await signIn(OPERATOR);
      const requests = logFileRequests(page);
      await fillInUpload(page, '2024-04', file.path);
      const network = await context.newCDPSession(page);
      await emulateNetwork(network, { offline: false, uplink: UPLINK_BYTES_PER_SECOND });
      await page.getByRole('button', { name: 'Upload' }).click();
      await expect
        .poll(() => requests.filter((request) => request.method === 'PATCH' && request.status === 204).length, {
          timeout: 60_000,
        })
        .toBeGreaterThan(0);
      await emulateNetwork(network, { offline: false, uplink: null });
      await page.reload();
      const beforeReload = requests.length;

      // The same file picked again: the console finds its unfinished upload and offers to resume it.
      await page.getByRole('heading', { name: 'Upload trade data' }).waitFor();
      await field(page, UPLOAD_FILE_LABEL).setInputFiles(file.path);
      const resume = page.getByRole('button', { name: /^Resume upload \d+$/ });
      await resume.waitFor();
      await resume.click();
      await expectWholeFileImported(page, file, fileName);

      const afterReload = requests.slice(beforeReload);
      expect(afterReload.filter((request) => request.method === 'POST')).toHaveLength(0);
      const offsetAsked = afterReload.find((request) => request.method === 'HEAD');
      expect(offsetAsked?.status).toBe(200);
      expect(offsetAsked!.answeredOffset).toBeGreaterThan(0);
      expect(afterReload.find((request) => request.method === 'PATCH')?.sentOffset).toBe(offsetAsked!.answeredOffset);
      expect(await acceptedHash('2024-04')).toBe(file.sha256);
    },
    { timeout: 240_000 },
  );
});
