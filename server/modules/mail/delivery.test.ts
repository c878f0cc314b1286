import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { startTestServer, testDatabases, testMail, type TestServer } from '../../testing/testServer.ts';
import { retryDelay } from '../../jobs/retryDelay.ts';
import { claimDueMail, queueMail } from './outbox.ts';
import { freePort, startSmtpTestServer, type SmtpTestServer } from './testing/smtpTestServer.ts';

const databases = await testDatabases();

interface OutboxRow {
  id: number;
  state: string;
  attempts: number;
  sent_via: string | null;
  last_error: string | null;
}

const until = async <T>(
  probe: () => Promise<T | null | undefined | false>,
  what: string,
  timeoutMs = 15_000,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe.each(databases)('the outbox delivered through SMTP on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let smtp: SmtpTestServer;
  const extraApps: FastifyInstance[] = [];
  const outboxRows = (recipient: string) =>
    server.db.query<OutboxRow & Record<string, unknown>>(
      'SELECT id, state, attempts, sent_via, last_error FROM outbox WHERE recipient = $1 ORDER BY id',
      [recipient],
    );
  const forgotPassword = (email: string) =>
    server.app.inject({ method: 'POST', url: '/api/v1/forget_password', payload: { email } });

  beforeAll(async () => {
    if (skip) return;
    smtp = await startSmtpTestServer();
    server = await startTestServer(kind, { mail: testMail(smtp.url) });
  });
  afterEach(async () => {
    await Promise.all(extraApps.splice(0).map((app) => app.close()));
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it.skipIf(skip)(
    'a reset link arrives as plain text and HTML naming the product and the expiry, and its row is marked sent',
    async () => {
      expect((await forgotPassword('viewer@example.com')).statusCode).toBe(200);
      const mail = await smtp.waitFor((candidate) => candidate.to.includes('viewer@example.com'));
      expect(mail.from).toBe('"Trade Data console" <no-reply@example.com>');
      expect(mail.subject).toBe('Reset your password for the Trade Data administration console');
      expect(mail.text).toContain('Hello Vera,');
      expect(mail.text).toContain('expires in 30 minutes');
      const link = new URL(mail.links[0]!);
      expect(link.pathname).toBe('/auth/reset-password');
      expect(mail.html).toContain(`href="${link.href.replaceAll('&', '&#38;')}"`);
      expect(mail.html).toContain('expires in 30 minutes');
      expect(mail.messageId).toMatch(/^<[0-9a-f-]{36}@example\.com>$/);
      const [row] = await until(async () => {
        const rows = await outboxRows('viewer@example.com');
        return rows[0]?.state === 'sent' && rows;
      }, 'the row marked sent');
      expect(row).toMatchObject({ state: 'sent', attempts: 1, sent_via: 'smtp', last_error: null });

      // The delivered link works: it sets a new password.
      const token = link.searchParams.get('token');
      const reset = await server.app.inject({
        method: 'POST',
        url: '/api/v1/reset_password',
        payload: { token, password: 'Viewer@24680', confirm_password: 'Viewer@24680' },
      });
      expect(reset.statusCode).toBe(200);
      expect(
        (
          await server.app.inject({
            method: 'POST',
            url: '/api/v1/login',
            payload: { email: 'viewer@example.com', password: 'Viewer@24680' },
          })
        ).statusCode,
      ).toBe(200);
    },
  );

  it.skipIf(skip)(
    'with the mail server down the message waits and is retried with a growing wait; once it is up it is delivered exactly once',
    async () => {
      const port = await freePort();
      const down = `smtp://127.0.0.1:${port}`;
      const app = await buildApp({
        config: { ...server.config, mail: testMail(down) },
        db: server.db,
        storage: server.storage,
      });
      extraApps.push(app);
      await app.ready();
      // This app's worker alone: the default server's would deliver the message to the other mail server.
      await server.app.mail!.stop();
      try {
        expect((await forgotPassword('sales@example.com')).statusCode).toBe(200);
        const failing = await until(async () => {
          const [row] = await outboxRows('sales@example.com');
          // Waiting between attempts: every attempt counted has failed (one being made would be counted and "sending").
          return row && row.attempts >= 3 && row.state === 'pending' && row;
        }, 'three failed attempts');
        const [waits] = await server.db.query<{ error: string }>(
          `SELECT last_error AS error FROM outbox WHERE id = $1`,
          [failing.id],
        );
        expect(waits!.error).toMatch(/ECONNREFUSED|ESOCKET|ECONNECTION/);

        const backUp = await startSmtpTestServer({ port });
        try {
          const delivered = await backUp.waitFor((mail) => mail.to.includes('sales@example.com'));
          expect(delivered.links[0]).toContain('/auth/reset-password?token=');
          const [sent] = await until(async () => {
            const rows = await outboxRows('sales@example.com');
            return rows[0]?.state === 'sent' && rows;
          }, 'the row marked sent');
          expect(sent!.attempts).toBeGreaterThan(failing.attempts);
          // Later rounds find nothing due: the message is not sent again.
          await new Promise((resolve) => setTimeout(resolve, 500));
          expect(backUp.delivered.filter((mail) => mail.to.includes('sales@example.com'))).toHaveLength(1);
          expect(smtp.delivered.filter((mail) => mail.to.includes('sales@example.com'))).toHaveLength(0);
        } finally {
          await backUp.close();
        }
      } finally {
        server.app.mail!.start();
      }
    },
  );

  it.skipIf(skip)(
    'three instances on one database share the outbox: each of 30 messages is delivered once',
    async () => {
      const apps = await Promise.all(
        [0, 1].map(() => buildApp({ config: server.config, db: server.db, storage: server.storage })),
      );
      extraApps.push(...apps);
      await Promise.all(apps.map((app) => app.ready()));
      const recipients = Array.from(
        { length: 30 },
        (_, index) => `shared-${index}-${randomUUID().slice(0, 8)}@example.com`,
      );
      await server.db.transaction(async (tx) => {
        for (const to of recipients)
          await queueMail(tx, {
            to,
            subject: 'Shared outbox',
            text: `For ${to}`,
            html: `<p>For ${to}</p>`,
            expiresAt: null,
          });
      });
      await until(
        async () => recipients.every((to) => smtp.delivered.some((mail) => mail.to.includes(to))),
        'all 30 delivered',
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const to of recipients)
        expect(
          smtp.delivered.filter((mail) => mail.to.includes(to)),
          to,
        ).toHaveLength(1);
      const [counts] = await server.db.query<{ sent: number; attempts: number }>(
        `SELECT count(*) FILTER (WHERE state = 'sent')::int AS sent, sum(attempts)::int AS attempts FROM outbox WHERE recipient = ANY($1)`,
        [recipients],
      );
      expect(counts).toEqual({ sent: 30, attempts: 30 });
    },
  );

  it.skipIf(skip)(
    'a message claimed by an instance that died mid-send is taken up again once the claim runs out',
    async () => {
      const to = `orphan-${randomUUID().slice(0, 8)}@example.com`;
      await server.app.mail!.stop();
      try {
        await queueMail(server.db, {
          to,
          subject: 'Orphaned',
          text: 'Claimed, never finished',
          html: '<p>Claimed</p>',
          expiresAt: null,
        });
        // What a dying instance leaves: a claim of 300 ms and no outcome.
        const claimed = await claimDueMail(server.db, randomUUID(), 300, 100);
        expect(claimed.map((mail) => mail.to)).toContain(to);
      } finally {
        server.app.mail!.start();
      }
      const delivered = await smtp.waitFor((mail) => mail.to.includes(to));
      expect(delivered.subject).toBe('Orphaned');
      const [row] = await until(async () => {
        const rows = await outboxRows(to);
        return rows[0]?.state === 'sent' && rows;
      }, 'the orphan marked sent');
      expect(row!.attempts).toBe(2);
    },
  );

  it.skipIf(skip)(
    'a recipient the mail server refuses for good is marked failed with its reply, and not tried again',
    async () => {
      const refusing = await startSmtpTestServer({ refuses: (address) => address.startsWith('bounce') });
      const app = await buildApp({
        config: { ...server.config, mail: testMail(refusing.url) },
        db: server.db,
        storage: server.storage,
      });
      extraApps.push(app);
      await server.app.mail!.stop();
      try {
        await app.ready();
        const to = `bounce-${randomUUID().slice(0, 8)}@example.com`;
        await queueMail(server.db, {
          to,
          subject: 'Refused',
          text: 'Nobody reads this',
          html: '<p>Nobody</p>',
          expiresAt: null,
        });
        const [row] = await until(async () => {
          const rows = await outboxRows(to);
          return rows[0]?.state === 'failed' && rows;
        }, 'the row marked failed');
        expect(row!.attempts).toBe(1);
        expect(row!.last_error).toMatch(/550.*mailbox unavailable/);
        expect(refusing.delivered).toHaveLength(0);
      } finally {
        server.app.mail!.start();
        await refusing.close();
      }
    },
  );

  it.skipIf(skip)(
    'a message still undelivered when its link expires is failed, not sent with a dead link',
    async () => {
      const port = await freePort();
      const app = await buildApp({
        config: { ...server.config, resetLinkSeconds: 1, mail: testMail(`smtp://127.0.0.1:${port}`) },
        db: server.db,
        storage: server.storage,
      });
      extraApps.push(app);
      await server.app.mail!.stop();
      try {
        await app.ready();
        const answer = await app.inject({
          method: 'POST',
          url: '/api/v1/forget_password',
          payload: { email: 'operator@example.com' },
        });
        expect(answer.statusCode).toBe(200);
        const [row] = await until(
          async () => {
            const rows = await outboxRows('operator@example.com');
            return rows[0]?.state === 'failed' && rows;
          },
          'the row marked failed',
          10_000,
        );
        expect(row!.last_error).toMatch(
          /^Not delivered before its link expired\. Last attempt: .*(ECONNREFUSED|ESOCKET|ECONNECTION)/,
        );
      } finally {
        server.app.mail!.start();
      }
      expect(smtp.delivered.filter((mail) => mail.to.includes('operator@example.com'))).toHaveLength(0);
    },
  );
});

describe('the retry schedule', () => {
  it('waits the first retry time after the first failure, doubling after each further one, up to the longest wait', () => {
    const schedule = testMail(null, { firstRetryMilliseconds: 30_000, maxRetryMilliseconds: 15 * 60_000 });
    expect([1, 2, 3, 4, 5, 6, 7, 12].map((attempt) => retryDelay(schedule, attempt) / 1000)).toEqual([
      30, 60, 120, 240, 480, 900, 900, 900,
    ]);
  });
});
