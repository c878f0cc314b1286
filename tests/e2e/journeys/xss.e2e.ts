import { describe, expect } from 'vitest';
import { openDatabase } from '../../../server/db/open.ts';
import { ADMIN, OPERATOR } from '../support/accounts.ts';
import { Api, unique } from '../support/api.ts';
import { startApi, stopApi } from '../support/control.ts';
import { API_URL, DATA_DIR } from '../support/env.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { tradeCsv } from '../support/tradeCsv.ts';
import { sendFileOverHttp } from '../../../server/modules/uploads/testing/tusRequests.ts';
import { publishEveryImport } from '../support/review.ts';

useBrowser();
publishEveryImport();

/**
 * Puts a notification straight into the run's database. The product has no way to create one with arbitrary
 * HTML (the upload notification escapes the file name, checked in upload.e2e.ts), and no test endpoint may exist
 * in it; so the API is stopped, its PGlite folder is opened with the server's own database module, the row is
 * inserted, and the API is started again.
 */
async function insertNotification(email: string, message: string): Promise<void> {
  await stopApi();
  try {
    const db = await openDatabase({ databaseUrl: null, databaseSchema: null, dataDir: DATA_DIR });
    try {
      const [user] = await db.query<{ id: number }>('SELECT id FROM users WHERE lower(email) = lower($1)', [email]);
      if (!user) throw new Error(`no user ${email}`);
      await db.query('UPDATE notifications SET is_read = true WHERE user_id = $1', [user.id]);
      await db.query('INSERT INTO notifications (user_id, message) VALUES ($1, $2)', [user.id, message]);
    } finally {
      await db.close();
    }
  } finally {
    await startApi();
  }
}

describe('hostile HTML', () => {
  journey(
    'NOTIF-10 NOTIF-02 a notification holding <img onerror> and <script> renders its text without running either',
    async ({ page, signIn, pageErrors, audit }) => {
      const marker = unique('MARK');
      const message =
        `<b>${marker}</b> report ready ` +
        `<img src=x onerror="window.__xssImage=1;alert('img')">` +
        `<script>window.__xssScript=1;alert('script')</script>` +
        `<svg><script>window.__xssSvg=1</script></svg>` +
        `<a href="javascript:window.__xssLink=1" id="xss-link">open</a>` +
        `<iframe srcdoc="<script>parent.__xssFrame=1</script>"></iframe>`;
      await insertNotification(ADMIN.email, message);
      const unread = (
        await (
          await Api.login(ADMIN.email, ADMIN.password)
        ).get<{ data: { message: string }[] }>('notification?is_read=false&_page=1&_page_size=8')
      ).data;
      expect(unread.map((notification) => notification.message)).toContain(message);

      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await signIn(ADMIN);
      await page.goto('/voucher-management/vouchers');
      const bell = page.getByRole('button', { name: /^Notifications/ });
      await bell.click();
      const item = page.locator('.notification-message').filter({ hasText: marker });
      await item.waitFor();
      // Rendered as HTML: the <b> is an element, not text.
      expect(await item.locator('b').textContent()).toBe(marker);
      expect(await item.innerHTML()).not.toMatch(/<script|onerror|javascript:|<iframe/i);
      await item
        .locator('a')
        .click({ timeout: 2_000 })
        .catch(() => undefined);
      await page.waitForTimeout(500);
      const ran = await page.evaluate(() => {
        const globals = window as unknown as Record<string, unknown>;
        return ['__xssImage', '__xssScript', '__xssSvg', '__xssLink', '__xssFrame'].filter(
          (name) => globals[name] !== undefined,
        );
      });
      expect(ran).toEqual([]);
      expect(dialogs).toEqual([]);
      expect(pageErrors.map(String)).toEqual([]);
      await audit('notifications dropdown');
    },
    // The content security policy of the server would also stop inline script; bypass it so the journey proves
    // the console's own sanitising (NOTIF-10), not only the server's header.
    { bypassCSP: true, timeout: 240_000 },
  );

  journey(
    'an upload whose file name is HTML is notified with the name escaped by the server (shown as text)',
    async ({ page, signIn, pageErrors }) => {
      // The product's own route to a notification: an upload, whose file name the operator chooses.
      const operator = await Api.login(OPERATOR.email, OPERATOR.password);
      await operator.post('notification/mark-all-as-read', {});
      const fileName = `<img src=x onerror="window.__xssUpload=1">${unique()}.csv`;
      const csv = tradeCsv(3);
      const countries = (await operator.get<{ data: { value: number; label: string }[] }>('countries/options')).data;
      const ticket = await operator.post<{
        data: { upload: { id: number }; upload_url: string; complete_path: string };
      }>('uploads', {
        country_id: countries[0]!.value,
        trade_direction: 'import',
        period: '2026-09',
        file_name: fileName,
        size: Buffer.byteLength(csv.text),
      });
      await sendFileOverHttp(API_URL, ticket.data.upload_url, csv.text);
      await operator.post(ticket.data.complete_path, {});
      await expect
        .poll(
          async () =>
            (await operator.get<{ data: { upload: { status: string } } }>(`uploads/${ticket.data.upload.id}/log`)).data
              .upload.status,
          { timeout: 30_000, interval: 250 },
        )
        .toBe('published');

      await signIn(OPERATOR);
      await page.goto('/data-upload-management/uploads');
      await page.getByRole('button', { name: /^Notifications/ }).click();
      const message = page.locator('.notification-message').filter({ hasText: fileName });
      await message.waitFor();
      expect(await message.locator('img').count()).toBe(0);
      expect(await message.locator('b').textContent()).toBe(fileName);
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => (window as unknown as Record<string, unknown>).__xssUpload)).toBeUndefined();
      expect(pageErrors.map(String)).toEqual([]);
    },
    { bypassCSP: true },
  );
});
