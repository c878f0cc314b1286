/**
 * Time moves subscriptions on: the clock expires them, makes them expiring and lets trials lapse, tells the assigned
 * executive and the administrators with a link to the subscriber, and acts once however many instances run it.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { openPostgres } from '../../db/postgres.ts';
import { TEST_DATABASE_URL, startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { subscribersDueForState } from './subscriberState.ts';
import { moveNextBatch, moveSubscriptionsOn } from './subscriptionClock.ts';

const databases = await testDatabases();

describe.each(databases)('the subscription clock on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let planId: number;
  let countryId: number;
  const send = async (method: 'GET' | 'POST', url: string, payload?: object, headers = admin) => {
    const response = await server.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers,
      ...(payload ? { payload } : {}),
    });
    return { status: response.statusCode, body: response.json() as { data: Record<string, unknown> & { id: number } } };
  };
  const statusOf = async (id: number) => (await send('GET', `subscribers/${id}`)).body.data.status;
  /** As if the subscriptions had been sold `days` earlier, and yesterday's round had run. */
  const passTime = async (subscriber: number, startsOn: string, endsOn: string) => {
    await server.db.query(
      'UPDATE subscriber_subscriptions SET starts_on = $2::date, ends_on = $3::date WHERE subscriber_id = $1',
      [subscriber, startsOn, endsOn],
    );
    await server.db.query(
      `INSERT INTO subscription_clock (id, derived_on) VALUES (1, current_date - 1) ON CONFLICT (id) DO UPDATE SET derived_on = current_date - 1`,
    );
  };
  const relative = async (days: number) =>
    (await server.db.query<{ day: string }>('SELECT (current_date + $1::int)::text AS day', [days]))[0]!.day;

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind, {}, { demoSubscribers: 10 });
    admin = await server.auth('Super Admin');
    countryId = Number((await server.db.query<{ id: number }>('SELECT min(id) AS id FROM countries'))[0]!.id);
    planId = (
      await send('POST', 'plans', {
        name: 'Clock',
        code: 'CLOCK',
        price: 100,
        validity_days: 365,
        points: 10,
        max_users: 1,
      })
    ).body.data.id;
  }, 120_000);
  afterAll(async () => server?.close());

  /**
   * Three instances' view of the app: on PostgreSQL each with its own connection pool to the same database, as three
   * servers would have; PGlite is one process's database, so there the three share it.
   */
  const threeInstances = async (): Promise<FastifyInstance[]> => {
    if (kind !== 'postgres') return [server.app, server.app, server.app];
    const others = await Promise.all(
      [1, 2].map(() => openPostgres(TEST_DATABASE_URL, server.config.databaseSchema, 2)),
    );
    onTestFinished(() => Promise.all(others.map((db) => db.close())).then(() => undefined));
    return [server.app, ...others.map((db) => Object.create(server.app, { db: { value: db } }) as FastifyInstance)];
  };
  let serial = 0;
  /** A subscriber the Sales Executive adds: assigned to them. */
  const subscriberOfSales = async () => {
    serial += 1;
    const name = `Clock ${String.fromCharCode(64 + serial)}`;
    const created = await send(
      'POST',
      'subscribers',
      { name, email: `clock.${serial}@example.com`, mobile: '9876543210', country_id: countryId },
      await server.auth('Sales Executive'),
    );
    expect(created.status).toBe(201);
    return { id: created.body.data.id, name };
  };

  it.skipIf(skip)(
    'an end within the expiring days makes the subscriber expiring, once, and tells the executive and the administrators with a link',
    async () => {
      const subscriber = await subscriberOfSales();
      const today = await relative(0);
      expect(
        (
          await send('POST', `subscribers/${subscriber.id}/subscriptions`, {
            plan_id: planId,
            starts_on: today,
            amount_paid: 100,
          })
        ).status,
      ).toBe(201);
      expect(await statusOf(subscriber.id)).toBe('active');
      const webhook = await send('POST', 'webhooks', {
        name: 'CRM',
        url: 'http://127.0.0.1:9/expiring',
        events: ['subscriptions.expiring'],
      });
      expect(webhook.status).toBe(201);
      await passTime(subscriber.id, await relative(-300), await relative(29));
      const rounds = await Promise.all((await threeInstances()).map((instance) => moveSubscriptionsOn(instance)));
      expect(rounds.filter((changed) => changed > 0)).toHaveLength(1);
      expect(await statusOf(subscriber.id)).toBe('expiring');
      expect(await moveSubscriptionsOn(server.app)).toBe(0);

      const told = await server.db.query<{ email: string; message: string; link: string }>(
        'SELECT u.email, n.message, n.link FROM notifications n JOIN users u ON u.id = n.user_id WHERE n.link LIKE $1 ORDER BY u.email',
        [`%/subscribers/${subscriber.id}/details`],
      );
      expect(
        told.map((row) => row.email),
        JSON.stringify(told),
      ).toEqual(['admin@example.com', 'sales@example.com']);
      expect(told[0]!.message).toContain(subscriber.name);
      expect(told[0]!.link).toBe(`/subscriber-management/subscribers/${subscriber.id}/details`);
      const mail = await server.db.query<{ recipient: string; body: string }>(
        'SELECT recipient, body FROM outbox WHERE subject = $1 ORDER BY recipient',
        [`${subscriber.name}'s subscription is ending`],
      );
      expect(mail.map((row) => row.recipient)).toEqual(['admin@example.com', 'sales@example.com']);
      expect(mail[0]!.body).toContain(`/subscriber-management/subscribers/${subscriber.id}/details`);
      const [entry] = await server.db.query<{ user_id: number | null; changes: unknown }>(
        `SELECT user_id, changes FROM audit_log WHERE module = 'SUBSCRIBERS' AND record_id = $1 AND action = 'subscription_state'`,
        [subscriber.id],
      );
      expect(entry).toMatchObject({ user_id: null, changes: { status: { before: 'active', after: 'expiring' } } });
      const events = await server.db.query<{ body: string }>(
        `SELECT body FROM webhook_deliveries WHERE webhook_id = $1 AND event = 'subscriptions.expiring'`,
        [webhook.body.data.id],
      );
      expect(events.map((event) => JSON.parse(event.body).data)).toMatchObject([
        { id: subscriber.id, status: 'expiring' },
      ]);
    },
  );

  it.skipIf(skip)(
    'an end passed expires the subscriber and drops the plan; a lapsed trial becomes expired and its people are told',
    async () => {
      const paid = await subscriberOfSales();
      await send('POST', `subscribers/${paid.id}/subscriptions`, {
        plan_id: planId,
        starts_on: await relative(0),
        amount_paid: 100,
      });
      await passTime(paid.id, await relative(-365), await relative(-1));
      expect(await moveSubscriptionsOn(server.app)).toBeGreaterThan(0);
      expect((await send('GET', `subscribers/${paid.id}`)).body.data).toMatchObject({
        status: 'expired',
        plan_id: null,
      });

      const trialist = await subscriberOfSales();
      await send('POST', `subscribers/${trialist.id}/subscriptions`, {
        plan_id: planId,
        starts_on: await relative(0),
        is_trial: true,
        amount_paid: 0,
      });
      expect(await statusOf(trialist.id)).toBe('trial');
      await passTime(trialist.id, await relative(-14), await relative(-1));
      await moveSubscriptionsOn(server.app);
      expect(await statusOf(trialist.id)).toBe('expired');
      const [told] = await server.db.query<{ message: string }>(
        'SELECT message FROM notifications WHERE link LIKE $1',
        [`%/subscribers/${trialist.id}/details`],
      );
      expect(told?.message).toContain('trial ended');
    },
  );

  it.skipIf(skip)(
    'a round goes batch by batch, each keeping how far it came; one cut short goes on from there in another instance',
    async () => {
      const first = await subscriberOfSales();
      const second = await subscriberOfSales();
      for (const subscriber of [first, second]) {
        await send('POST', `subscribers/${subscriber.id}/subscriptions`, {
          plan_id: planId,
          starts_on: await relative(0),
          amount_paid: 100,
        });
        await passTime(subscriber.id, await relative(-365), await relative(-1));
      }
      const clock = async () =>
        (
          await server.db.query<{ derived_on: string | null; round_on: string | null; done_through: string | null }>(
            'SELECT derived_on::text, round_on::text, done_through::text FROM subscription_clock WHERE id = 1',
          )
        )[0];
      const due = await subscribersDueForState(server.db, await relative(-1), await relative(0), 30, {
        after: 0,
        limit: 100_000,
      });
      expect(due).toEqual(expect.arrayContaining([first.id, second.id]));
      // Batches that end with the first subscriber: the second is in a later one.
      const batchSize = due.indexOf(first.id) + 1;
      expect(await moveNextBatch(server.app, batchSize)).toMatchObject({ roundFinished: false });
      expect(await clock()).toEqual({
        derived_on: await relative(-1),
        round_on: await relative(0),
        done_through: String(first.id),
      });
      expect(await statusOf(first.id)).toBe('expired');
      expect(await statusOf(second.id)).toBe('active');

      // Were the round to start again, the first subscriber, sold again meanwhile, would be moved on now too.
      await server.db.query(
        'UPDATE subscriber_subscriptions SET ends_on = current_date + 100 WHERE subscriber_id = $1',
        [first.id],
      );
      const [, other] = await threeInstances();
      expect(await moveSubscriptionsOn(other!, batchSize)).toBeGreaterThan(0);
      expect(await statusOf(second.id)).toBe('expired');
      expect(await statusOf(first.id)).toBe('expired');
      expect(await clock()).toEqual({ derived_on: await relative(0), round_on: null, done_through: null });
      expect(await moveNextBatch(server.app, batchSize)).toBeNull();
    },
  );
});
