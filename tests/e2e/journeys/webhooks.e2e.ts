import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { ADMIN } from '../support/accounts.ts';
import { Api, unique } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { auditBothWidths, row, toast } from '../support/ui.ts';

useBrowser();

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** Another system's receiver on this machine: it takes every POST and keeps what it was sent. */
let receiver: Server;
const received: Received[] = [];
let receiverUrl = '';

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'text/plain' }).end('taken');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/trade-data-events`;
});

afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

const header = (delivery: Received, name: string) => String(delivery.headers[name] ?? '');

/** The deliveries of one event the receiver got, by the event's name and the voucher it is about. */
const deliveriesOf = (event: string, code: string) =>
  received.filter(
    (delivery) => header(delivery, 'x-webhook-event') === event && delivery.body.includes(`"code":"${code}"`),
  );

describe('webhooks', () => {
  journey(
    'an administrator has another system told of voucher changes, checks the signature, reads the delivery log and sends a delivery again',
    async ({ page, signIn, audit }) => {
      const admin = await Api.login(ADMIN.email, ADMIN.password);
      const code = unique('HOOK');
      const today = new Date().toISOString().slice(0, 10);
      const { data: voucher } = await admin.post<{ data: { id: number } }>('vouchers', {
        code,
        discount_type: 'flat',
        discount_value: 50,
        valid_from: today,
        valid_to: new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10),
      });

      await signIn(ADMIN);
      await page.goto('/user-management/webhooks');
      await page.getByRole('button', { name: 'New webhook' }).click();
      const dialog = page.getByRole('dialog', { name: 'New webhook' });
      const name = `Billing ${unique()}`;
      await dialog.getByLabel('Name').fill(name);
      await dialog.getByLabel('URL').fill(receiverUrl);
      await dialog.getByRole('searchbox', { name: 'Find a module' }).fill('Vouchers');
      await dialog
        .getByRole('group', { name: 'Vouchers', exact: true })
        .getByRole('checkbox', { name: 'Changed', exact: true })
        .check();
      await auditBothWidths(page, audit, 'new webhook dialog');
      await dialog.getByRole('button', { name: 'Make the webhook' }).click();

      const made = page.getByRole('dialog', { name: `Webhook "${name}" made` });
      const secret = await made.getByLabel('The signing secret').inputValue();
      expect(secret).toMatch(/^whsec_/);
      await audit('webhook signing secret shown once');
      await made.getByRole('button', { name: 'Done' }).click();
      await expect.poll(() => row(page, name).textContent()).toContain('Vouchers: changed');
      await auditBothWidths(page, audit, 'webhooks list');

      // A change of the voucher through the API reaches the receiver, signed with the secret shown.
      await admin.patch(`vouchers/${voucher.id}`, { description: 'Changed for the webhook' }, { 'if-match': '*' });
      await expect.poll(() => deliveriesOf('vouchers.updated', code).length, { timeout: 30_000 }).toBe(1);
      const [first] = deliveriesOf('vouchers.updated', code);
      const timestamp = header(first!, 'x-webhook-timestamp');
      const expected = createHmac('sha256', secret).update(`${timestamp}.${first!.body}`).digest('hex');
      expect(header(first!, 'x-signature')).toBe(`sha256=${expected}`);
      expect(Math.abs(Date.now() / 1000 - Number(timestamp))).toBeLessThan(120);
      expect(JSON.parse(first!.body)).toMatchObject({ event: 'vouchers.updated', data: { code } });

      // Its delivery log says it was delivered; sent again, the receiver gets the same event a second time.
      await page.getByRole('link', { name, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: `Webhook "${name}"` }).waitFor();
      const log = page.getByRole('region', { name: 'Deliveries table' });
      await expect.poll(() => row(page, 'vouchers.updated').textContent(), { timeout: 15_000 }).toContain('Delivered');
      await auditBothWidths(page, audit, 'webhook delivery log');
      await log.getByRole('button', { name: /^Details of delivery #\d+$/ }).click();
      const details = page.getByRole('dialog', { name: /^Delivery #\d+: vouchers\.updated$/ });
      expect(await details.getByRole('region', { name: 'The body sent' }).textContent()).toContain(`"code": "${code}"`);
      await auditBothWidths(page, audit, 'webhook delivery details');
      await details.getByRole('button', { name: 'Close' }).click();

      await log.getByRole('button', { name: /^Send again: delivery #\d+$/ }).click();
      await expect.poll(() => deliveriesOf('vouchers.updated', code).length, { timeout: 30_000 }).toBe(2);
      const [, again] = deliveriesOf('vouchers.updated', code);
      expect(header(again!, 'x-webhook-id')).toBe(header(first!, 'x-webhook-id'));
      await expect
        .poll(() => log.getByRole('row').filter({ hasText: 'vouchers.updated' }).count(), { timeout: 15_000 })
        .toBe(2);
      await expect
        .poll(
          () =>
            log
              .getByRole('row')
              .filter({ hasText: /sends #\d+ again/ })
              .textContent(),
          { timeout: 15_000 },
        )
        .toContain('Delivered');

      // Deleted, it is told of nothing more.
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page
        .getByRole('dialog', { name: `Delete webhook "${name}"?` })
        .getByRole('button', { name: 'Delete' })
        .click();
      await expect.poll(() => toast(page, name).count()).toBe(1);
      await expect.poll(() => row(page, name).count()).toBe(0);
    },
    { timeout: 120_000 },
  );
});
