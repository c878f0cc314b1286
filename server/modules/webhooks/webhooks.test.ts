import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_SECRET_PREFIX, type WebhookDeliveryAnswer } from '../../../contract/webhooks.ts';
import { until } from '../../testing/until.ts';
import { spellings } from '../../testing/pathSpellings.ts';
import { TEST_WEBHOOKS, startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { signedWith, TestReceiver } from './testing/receiver.ts';

const databases = await testDatabases();

type Headers = Record<string, string>;
type Answer = {
  data: Record<string, unknown> & { id: number; secret: string; version: number };
  meta?: { total: number };
  message?: string;
  errors?: Record<string, string>;
};

describe.each(databases)('webhooks on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Headers;
  let receiver: TestReceiver;
  let url: string;
  let serial = 0;
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, headers: Headers, body?: object) => {
    const response = await server.app.inject({
      method,
      url: path.startsWith('/') ? path : `/api/v1/${path}`,
      headers,
      ...(body === undefined ? {} : { payload: body }),
    });
    return {
      status: response.statusCode,
      body: (response.body.startsWith('{') ? response.json() : {}) as Answer,
      etag: String(response.headers.etag ?? ''),
    };
  };
  const register = async (events: string[], by: Headers = admin, address = url) =>
    call('POST', 'webhooks', by, { name: `Receiver ${(serial += 1)}`, url: address, events });
  const country = (n: number) => ({
    name: `Country ${n}`,
    iso2: `${String.fromCharCode(65 + (n % 26))}${String.fromCharCode(65 + ((n / 26) | 0))}`,
    iso3: `Q${String.fromCharCode(65 + (n % 26))}${String.fromCharCode(65 + ((n / 26) | 0))}`,
    region: 'asia',
    currency_code: 'INR',
  });
  const deliveries = async (webhookId: number) =>
    (await call('GET', `webhooks/${webhookId}/deliveries?_page_size=200`, admin)).body
      .data as unknown as WebhookDeliveryAnswer[];

  beforeAll(async () => {
    if (skip) return;
    receiver = new TestReceiver();
    url = await receiver.start();
    server = await startTestServer(kind, { webhooks: TEST_WEBHOOKS });
    admin = await server.auth('Super Admin');
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.stop();
  });

  it.skipIf(skip)('delivers a change once, signed, with the record as the API answers it', async () => {
    const made = await register(['countries.created', 'countries.updated']);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const { id, secret } = made.body.data;
    expect(secret.startsWith(WEBHOOK_SECRET_PREFIX)).toBe(true);
    expect(made.body.data.secret_hint).toBe(secret.slice(0, 10));
    expect(JSON.stringify((await call('GET', `webhooks/${id}`, admin)).body)).not.toContain(secret);

    const created = await call('POST', 'countries', admin, country(1));
    expect(created.status).toBe(201);
    const record = (await call('GET', `countries/${created.body.data.id}`, admin)).body.data;
    const [delivered] = await until(
      () => receiver.of('countries.created').length === 1 && receiver.of('countries.created'),
      'the delivery',
    );
    expect(signedWith(delivered!, secret)).toBe(true);
    expect(signedWith(delivered!, `${secret}x`)).toBe(false);
    const body = JSON.parse(delivered!.body) as { id: string; event: string; data: Record<string, unknown> };
    expect(body).toMatchObject({ id: delivered!.headers['x-webhook-id'], event: 'countries.created' });
    expect(body.data).toEqual(JSON.parse(JSON.stringify(record)));
    const timestamp = Number(delivered!.headers['x-webhook-timestamp']);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(300);

    const logged = await until(async () => {
      const [entry] = await deliveries(id);
      return entry?.state === 'delivered' && entry;
    }, 'the delivery logged as delivered');
    expect(logged).toMatchObject({ attempts: 1, response_status: 200, response_body: 'taken', error: null });
    // Exactly once: further rounds find nothing due.
    expect(await server.app.webhooks.deliverDue()).toBe(0);
    expect(receiver.of('countries.created')).toHaveLength(1);
  });

  it.skipIf(skip)('retries while the receiver is down, with the same event id, until it takes it', async () => {
    const { id, secret } = (await register(['countries.deleted'])).body.data;
    const created = await call('POST', 'countries', admin, country(2));
    receiver.answerNext('countries.deleted', 503, 500);
    const removed = await call('DELETE', `countries/${created.body.data.id}`, { ...admin, 'if-match': created.etag });
    expect(removed.status).toBe(200);
    const attempts = await until(
      () => receiver.of('countries.deleted').length === 3 && receiver.of('countries.deleted'),
      'three attempts',
    );
    expect(new Set(attempts.map((attempt) => attempt.headers['x-webhook-id'])).size).toBe(1);
    expect(attempts.every((attempt) => signedWith(attempt, secret))).toBe(true);
    expect(JSON.parse(attempts[0]!.body).data).toMatchObject({ id: created.body.data.id, name: 'Country 2' });
    const [entry] = await until(async () => {
      const log = await deliveries(id);
      return log[0]?.state === 'delivered' && log;
    }, 'the delivery to end delivered');
    expect(entry).toMatchObject({ attempts: 3, response_status: 200 });
  });

  it.skipIf(skip)('sends nothing for a change that rolled back', async () => {
    const { id } = (await register(['countries.created'])).body.data;
    const before = receiver.received.length;
    const countries = server.app.records.named('COUNTRIES');
    const actor = { userId: null, email: null, clientAddress: null, requestId: null };
    await expect(
      server.db.transaction(async (tx) => {
        await countries.create({ app: server.app, tx, user: null, actor }, country(3));
        throw new Error('the rest of the change failed');
      }),
    ).rejects.toThrow('the rest of the change failed');
    expect(await deliveries(id)).toEqual([]);
    await server.app.webhooks.deliverDue();
    expect(receiver.received.length).toBe(before);
  });

  it.skipIf(skip)('sends again on request, as a new delivery of the same event, and a test event', async () => {
    const { id } = (await register(['countries.updated'])).body.data;
    const created = await call('POST', 'countries', admin, country(4));
    const read = await call('GET', `countries/${created.body.data.id}`, admin);
    const changed = await call(
      'PUT',
      `countries/${created.body.data.id}`,
      { ...admin, 'if-match': read.etag },
      {
        ...country(4),
        name: 'Country four',
      },
    );
    expect(changed.status).toBe(200);
    const [first] = await until(async () => {
      const log = await deliveries(id);
      return log[0]?.state === 'delivered' && log;
    }, 'the first delivery');
    const again = await call('POST', `webhooks/${id}/deliveries/${first!.id}/resend`, admin);
    expect(again.status).toBe(202);
    expect(again.body.data).toMatchObject({ event_id: first!.event_id, replay_of: first!.id, state: 'pending' });
    await until(
      () => receiver.received.filter((r) => r.headers['x-webhook-id'] === first!.event_id).length === 2,
      'the resend',
    );
    expect((await call('POST', `webhooks/${id}/deliveries/999999/resend`, admin)).status).toBe(404);

    const ping = await call('POST', `webhooks/${id}/ping`, admin);
    expect(ping.status).toBe(202);
    await until(
      () => receiver.of('webhook.ping').some((r) => JSON.parse(r.body).data.webhook_id === id),
      'the test event',
    );
    const failed = await call('GET', `webhooks/${id}/deliveries?state=failed`, admin);
    expect(failed.body.meta?.total).toBe(0);
  });

  it.skipIf(skip)('changes settings only at the version read, and a new secret signs from then on', async () => {
    const made = (await register(['countries.created'])).body.data;
    const settings = { name: 'Renamed', url, events: ['countries.created', 'countries.updated'], enabled: true };
    expect((await call('PUT', `webhooks/${made.id}`, admin, settings)).status).toBe(428);
    expect((await call('PUT', `webhooks/${made.id}`, { ...admin, 'if-match': '"99"' }, settings)).status).toBe(412);
    const saved = await call('PUT', `webhooks/${made.id}`, { ...admin, 'if-match': `"${made.version}"` }, settings);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ name: 'Renamed', events: settings.events, version: made.version + 1 });

    const rotated = await call('POST', `webhooks/${made.id}/secret`, admin);
    expect(rotated.body.data.secret).not.toBe(made.secret);
    await call('POST', 'countries', admin, country(5));
    const sent = await until(
      () =>
        receiver
          .of('countries.created')
          .find((r) => JSON.parse(r.body).data.name === 'Country 5' && signedWith(r, rotated.body.data.secret)),
      'a delivery signed with the new secret',
    );
    expect(signedWith(sent, made.secret)).toBe(false);

    const paused = await call(
      'PUT',
      `webhooks/${made.id}`,
      { ...admin, 'if-match': `"${made.version + 2}"` },
      { ...settings, enabled: false },
    );
    expect(paused.status).toBe(200);
    await call('POST', 'countries', admin, country(6));
    expect((await deliveries(made.id)).some((d) => d.body.includes('Country 6'))).toBe(false);
    expect((await call('DELETE', `webhooks/${made.id}`, admin)).status).toBe(200);
    expect((await call('GET', `webhooks/${made.id}`, admin)).status).toBe(404);
  });

  it.skipIf(skip)(
    'refuses unknown events, events of records the role sees only in part, and bad addresses',
    async () => {
      const unknown = await register(['countries.exploded']);
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors?.events).toContain('countries.exploded');
      expect((await register(['countries.created'], admin, 'ftp://example.com/')).body.errors?.url).toContain(
        'https://',
      );
      expect(
        (await register(['countries.created'], admin, 'http://169.254.169.254/latest')).body.errors?.url,
      ).toContain('special-purpose');
      expect((await register(['countries.created'], admin, 'http://10.1.2.3/')).body.errors?.url).toContain(
        'private network',
      );

      await server.db.query(
        `INSERT INTO role_permissions (role_id, module, action) SELECT id, m, a FROM roles,
         (VALUES ('WEBHOOKS', 'view'), ('WEBHOOKS', 'add')) AS p(m, a) WHERE name = 'Sales Executive' ON CONFLICT DO NOTHING`,
      );
      const sales = await server.auth('Sales Executive');
      const offered = (await call('GET', 'webhooks/events', sales)).body.data as unknown as Array<{ name: string }>;
      expect(offered.some((event) => event.name.startsWith('subscribers.'))).toBe(false);
      const scoped = await register(['subscribers.updated'], sales);
      expect(scoped.status).toBe(400);
      expect(scoped.body.errors?.events).toContain('subscribers.updated');
    },
  );

  it.skipIf(skip)('keeps its routes to those granted WEBHOOKS, however the path is spelled', async () => {
    const viewer = await server.auth('Read Only');
    const operator = await server.auth('Data Operator');
    const someone = (await register(['countries.created'])).body.data;
    for (const path of ['/api/v1/webhooks', '/api/v1/webhooks/events', `/api/v1/webhooks/${someone.id}/deliveries`]) {
      for (const spelled of spellings(path)) {
        expect([401, 404], `${spelled} without a token`).toContain((await call('GET', spelled, {})).status);
        expect([403, 404], `${spelled} without WEBHOOKS`).toContain((await call('GET', spelled, operator)).status);
      }
    }
    for (const path of [
      `/api/v1/webhooks/${someone.id}`,
      `/api/v1/webhooks/${someone.id}/secret`,
      `/api/v1/webhooks/${someone.id}/ping`,
    ]) {
      for (const spelled of spellings(path)) {
        const method = path.endsWith(String(someone.id)) ? 'DELETE' : 'POST';
        expect([401, 404], `${method} ${spelled} without a token`).toContain((await call(method, spelled, {})).status);
        expect([403, 404], `${method} ${spelled} as Read Only`).toContain((await call(method, spelled, viewer)).status);
      }
    }
    expect((await call('GET', 'webhooks/999999', admin)).status).toBe(404);
    expect((await call('GET', `webhooks/999999/deliveries`, admin)).status).toBe(404);
  });
});

describe.each(databases)('webhooks in production on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let receiver: TestReceiver;

  beforeAll(async () => {
    if (skip) return;
    receiver = new TestReceiver();
    server = await startTestServer(kind, { production: true, webhooks: { ...TEST_WEBHOOKS, receivers: 'public' } });
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.stop();
  });

  it.skipIf(skip)('refuses receivers on loopback and private addresses, at registration and at delivery', async () => {
    const admin = await server.auth('Super Admin');
    for (const address of [
      'http://127.0.0.1:9/hook',
      'http://localhost:9/hook',
      'http://[::1]:9/',
      'http://192.168.1.5/',
    ]) {
      const refused = await server.app.inject({
        method: 'POST',
        url: '/api/v1/webhooks',
        headers: admin,
        payload: { name: 'Inside', url: address, events: ['countries.created'] },
      });
      expect(refused.statusCode, address).toBe(400);
      expect(refused.json().errors.url, address).toMatch(/loopback|private network/);
    }
    // One registered before the setting changed is refused when it is sent, for good, without a connection.
    const [row] = await server.db.query<{ id: number }>(
      `INSERT INTO webhooks (name, url, events, secret) VALUES ('Old', $1, '{webhook.ping}', 'whsec_x') RETURNING id`,
      [await receiver.start()],
    );
    await server.app.inject({ method: 'POST', url: `/api/v1/webhooks/${row!.id}/ping`, headers: admin });
    const [failed] = await until(async () => {
      const found = await server.db.query<{ state: string; last_error: string }>(
        'SELECT state, last_error FROM webhook_deliveries WHERE webhook_id = $1',
        [row!.id],
      );
      return found[0]?.state === 'failed' && found;
    }, 'the delivery to fail');
    expect(failed!.last_error).toContain('loopback');
    expect(receiver.received).toHaveLength(0);
    // Every delivery there would fail the same way: the webhook is paused, saying why.
    const [webhook] = await server.db.query<{ enabled: boolean; paused_reason: string }>(
      'SELECT enabled, paused_reason FROM webhooks WHERE id = $1',
      [row!.id],
    );
    expect(webhook).toMatchObject({ enabled: false });
    expect(webhook!.paused_reason).toContain('could not be delivered (This server does not send webhooks there');
  });
});
