/**
 * A webhook whose receiver is gone is paused by the server: once a delivery fails for good with nothing through since
 * its event was queued. Its maker is told with a link, the pause has its audit entry, and enabling it clears why. One
 * whose maker left is sent nothing, and says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../testing/until.ts';
import { TEST_WEBHOOKS, startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { TestReceiver } from './testing/receiver.ts';

const databases = await testDatabases();

type Headers = Record<string, string>;
type Answer = { data: Record<string, unknown> & { id: number; version: number } };

describe.each(databases)('webhooks whose deliveries keep failing on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Headers;
  let receiver: TestReceiver;
  let url: string;
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, headers: Headers, body?: object) => {
    const response = await server.app.inject({
      method,
      url: `/api/v1/${path}`,
      headers,
      ...(body === undefined ? {} : { payload: body }),
    });
    return { status: response.statusCode, body: response.json() as Answer, etag: String(response.headers.etag ?? '') };
  };
  let serial = 0;
  const newCountry = async () => {
    serial += 1;
    const letter = String.fromCharCode(64 + serial);
    const made = await call('POST', 'countries', admin, {
      name: `Paused ${letter}`,
      iso2: `Z${letter}`,
      iso3: `ZZ${letter}`,
      region: 'asia',
      currency_code: 'INR',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return made;
  };
  const removeCountry = async (made: Awaited<ReturnType<typeof newCountry>>) =>
    expect((await call('DELETE', `countries/${made.body.data.id}`, { ...admin, 'if-match': made.etag })).status).toBe(
      200,
    );
  /** Until `count` deliveries of the webhook are recorded in this state (a receiver's answer is recorded after it). */
  const deliveriesIn = (state: 'delivered' | 'failed', webhookId: number, count: number) =>
    until(async () => {
      const [row] = await server.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1 AND state = $2',
        [webhookId, state],
      );
      return row!.n === count;
    }, `${count} deliveries ${state}`);

  beforeAll(async () => {
    if (skip) return;
    receiver = new TestReceiver();
    url = await receiver.start();
    server = await startTestServer(kind, { webhooks: { ...TEST_WEBHOOKS, giveUpAfterMilliseconds: 2_000 } });
    admin = await server.auth('Super Admin');
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.stop();
  });

  it.skipIf(skip)(
    'stays enabled while other events get through; is paused, its maker told, once nothing has since the failed one',
    async () => {
      const made = await call('POST', 'webhooks', admin, {
        name: 'Flaky',
        url,
        events: ['countries.created', 'countries.deleted'],
      });
      expect(made.status).toBe(201);
      const webhookId = made.body.data.id;
      receiver.answerNext('countries.deleted', ...Array<number>(40).fill(500));

      // A deletion that fails for good while a later creation gets through: the receiver is there.
      const first = await newCountry();
      await deliveriesIn('delivered', webhookId, 1);
      await removeCountry(first);
      await newCountry();
      await deliveriesIn('delivered', webhookId, 2);
      await deliveriesIn('failed', webhookId, 1);
      expect((await call('GET', `webhooks/${webhookId}`, admin)).body.data).toMatchObject({
        enabled: true,
        paused_reason: null,
      });

      // A deletion that fails for good with nothing through since: paused.
      const second = await newCountry();
      await deliveriesIn('delivered', webhookId, 3);
      await removeCountry(second);
      await deliveriesIn('failed', webhookId, 2);
      const paused = (await call('GET', `webhooks/${webhookId}`, admin)).body.data;
      expect(paused).toMatchObject({ enabled: false });
      expect(paused.paused_reason).toMatch(
        /^A countries\.deleted event could not be delivered \(Answered 500\), and nothing got through since it was queued on \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/,
      );
      const [entry] = await server.db.query<{ user_id: number | null; changes: unknown; details: { reason: string } }>(
        `SELECT user_id, changes, details FROM audit_log WHERE module = 'WEBHOOKS' AND record_id = $1 AND action = 'paused'`,
        [webhookId],
      );
      expect(entry).toMatchObject({ user_id: null, changes: { enabled: { before: true, after: false } } });
      expect(entry!.details.reason).toBe(paused.paused_reason);
      const link = `/user-management/webhooks?webhook=${webhookId}`;
      const told = await server.db.query<{ email: string; message: string; link: string }>(
        'SELECT u.email, n.message, n.link FROM notifications n JOIN users u ON u.id = n.user_id WHERE n.link = $1',
        [link],
      );
      expect(told).toHaveLength(1);
      expect(told[0]).toMatchObject({ email: 'admin@example.com' });
      expect(told[0]!.message).toContain('<b>Flaky</b> was paused');
      const [mail] = await server.db.query<{ recipient: string; body: string }>(
        'SELECT recipient, body FROM outbox WHERE subject = $1',
        ['Webhook Flaky paused: deliveries kept failing'],
      );
      expect(mail).toMatchObject({ recipient: 'admin@example.com' });
      expect(mail!.body).toContain(link);

      // Paused: a change queues nothing for it.
      const queued = async () =>
        (
          await server.db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1',
            [webhookId],
          )
        )[0]!.n;
      const before = await queued();
      await newCountry();
      expect(await queued()).toBe(before);

      // Enabled again by a person: why it was paused goes.
      const enabled = await call(
        'PUT',
        `webhooks/${webhookId}`,
        { ...admin, 'if-match': `"${paused.version}"` },
        { name: 'Flaky', url, events: ['countries.created', 'countries.deleted'], enabled: true },
      );
      expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
      expect(enabled.body.data).toMatchObject({ enabled: true, paused_reason: null });
    },
  );

  it.skipIf(skip)('a webhook whose maker is deactivated is sent nothing, and says so', async () => {
    const [maker] = await server.db.query<{ id: number }>(`SELECT id FROM users WHERE email = 'viewer@example.com'`);
    const [row] = await server.db.query<{ id: number }>(
      `INSERT INTO webhooks (name, url, events, secret, created_by)
       VALUES ('Of a leaver', $1, '{countries.created}', 'whsec_x', $2) RETURNING id`,
      [url, maker!.id],
    );
    const webhookId = Number(row!.id);
    const queued = async () =>
      (
        await server.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1',
          [webhookId],
        )
      )[0]!.n;
    expect((await call('GET', `webhooks/${webhookId}`, admin)).body.data).toMatchObject({ maker_active: true });
    await newCountry();
    expect(await queued()).toBe(1);
    await server.db.query('UPDATE users SET is_active = false WHERE id = $1', [maker!.id]);
    expect((await call('GET', `webhooks/${webhookId}`, admin)).body.data).toMatchObject({
      enabled: true,
      maker_active: false,
    });
    await newCountry();
    expect(await queued()).toBe(1);
    await server.db.query('UPDATE users SET is_active = true WHERE id = $1', [maker!.id]);
  });
});
