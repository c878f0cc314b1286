import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { startTestServer, testDatabases, testMail, type TestServer } from '../../testing/testServer.ts';
import { until } from '../../testing/until.ts';
import type { MailboxEntry } from '../../../contract/mailbox.ts';

const databases = await testDatabases();

describe.each(databases)('e-mail without SMTP_URL on $kind', ({ kind, skip }) => {
  let server: TestServer;
  const apps: FastifyInstance[] = [];
  const printed: string[] = [];

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    // The test server's own worker would print to its log: this one prints where the test can read it.
    await server.app.mail!.stop();
  });
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });
  afterAll(async () => server?.close());

  const start = async (production: boolean) => {
    const app = await buildApp({
      config: { ...server.config, production, mail: testMail(null) },
      db: server.db,
      storage: server.storage,
      printMail: (line) => printed.push(line),
    });
    apps.push(app);
    await app.ready();
    return app;
  };

  it.skipIf(skip)(
    'in development each message is printed with its link on the server console, and the mailbox lists it',
    async () => {
      const app = await start(false);
      expect(
        (await app.inject({ method: 'POST', url: '/api/v1/forget_password', payload: { email: 'viewer@example.com' } }))
          .statusCode,
      ).toBe(200);
      const deadline = Date.now() + 10_000;
      while (!printed.some((line) => line.includes('viewer@example.com')) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const line = printed.find((candidate) => candidate.includes('viewer@example.com'))!;
      expect(line).toMatch(
        /^E-mail to viewer@example\.com \(not sent: no SMTP_URL\): "Reset your password for the Trade Data administration console"\n {2}http:\/\/localhost:\d+\/auth\/reset-password\?token=[\w-]+$/,
      );

      // The line is printed before the message is marked sent: wait for the mark.
      const mailbox = await until(async () => {
        const answer = await app.inject({ method: 'GET', url: '/api/v1/dev/mailbox' });
        return (answer.json() as { data: MailboxEntry[] }).data[0]?.state === 'sent' && answer;
      }, 'the message marked sent');
      expect(mailbox.statusCode).toBe(200);
      const { data, meta } = mailbox.json() as { data: MailboxEntry[]; meta: { delivery: string } };
      expect(meta).toEqual({ delivery: 'console' });
      const [newest] = data;
      expect(newest).toMatchObject({
        recipient: 'viewer@example.com',
        subject: 'Reset your password for the Trade Data administration console',
        state: 'sent',
        sent_via: 'console',
        attempts: 1,
      });
      expect(newest!.links).toEqual([line.split('\n  ')[1]]);
      expect(newest!.text).toContain('expires in 30 minutes');
      // Newest first, at most 50.
      const times = data.map((entry) => Date.parse(entry.created_at));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      expect(data.length).toBeLessThanOrEqual(50);
    },
  );

  it.skipIf(skip)(
    'in production nothing is sent or printed: messages wait in the outbox for a server with SMTP_URL, and there is no mailbox',
    async () => {
      const app = await start(true);
      expect(app.mail).toBeNull();
      printed.length = 0;
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/api/v1/forget_password',
            payload: { email: 'operator@example.com' },
          })
        ).statusCode,
      ).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(printed).toEqual([]);
      const [waiting] = await server.db.query<{ state: string; attempts: number }>(
        `SELECT state, attempts FROM outbox WHERE recipient = 'operator@example.com' ORDER BY id DESC LIMIT 1`,
      );
      expect(waiting).toEqual({ state: 'pending', attempts: 0 });
      expect((await app.inject({ method: 'GET', url: '/api/v1/dev/mailbox' })).statusCode).toBe(404);
    },
  );
});
