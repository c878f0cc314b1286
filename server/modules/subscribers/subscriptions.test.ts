/**
 * A subscriber's status and plan come from their subscriptions alone (every transition, and no other path writes them),
 * and a sale records its money exactly, with its voucher checked and counted once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';

const databases = await testDatabases();

describe.each(databases)('subscriptions, status and money on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let today: string;
  let countryId: number;
  let plans: { year: number; short: number; other: number };
  const send = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object, headers = admin) => {
    const response = await server.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers,
      ...(payload ? { payload } : {}),
    });
    return {
      status: response.statusCode,
      body: response.json() as { data: Record<string, unknown> & { id: number }; errors?: Record<string, string> },
      etag: String(response.headers.etag ?? ''),
    };
  };
  const day = (offset: number) =>
    new Date(Date.parse(`${today}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
  let serial = 0;
  const newSubscriber = async () => {
    serial += 1;
    const created = await send('POST', 'subscribers', {
      name: `Buyer ${String.fromCharCode(64 + serial)}`,
      email: `buyer.${serial}@example.com`,
      mobile: '9876543210',
      country_id: countryId,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data.id;
  };
  const stateOf = async (id: number) => {
    const { data } = (await send('GET', `subscribers/${id}`)).body;
    return { status: data.status, plan_id: data.plan_id };
  };
  const sell = (id: number, body: Record<string, unknown>, headers = admin) =>
    send('POST', `subscribers/${id}/subscriptions`, { amount_paid: 0, ...body }, headers);

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    admin = await server.auth('Super Admin');
    today = (await server.db.query<{ today: string }>('SELECT current_date::text AS today'))[0]!.today;
    countryId = (
      await send('POST', 'countries', { name: 'India', iso2: 'IN', iso3: 'IND', region: 'asia', currency_code: 'INR' })
    ).body.data.id;
    const plan = async (name: string, price: number, days: number) =>
      (
        await send('POST', 'plans', {
          name,
          code: name.toUpperCase(),
          price,
          validity_days: days,
          points: 100,
          max_users: 1,
        })
      ).body.data.id;
    plans = {
      year: await plan('Year', 999.99, 365),
      short: await plan('Short', 500, 10),
      other: await plan('Other', 100, 365),
    };
  }, 120_000);
  afterAll(async () => server?.close());

  it.skipIf(skip)(
    'new, sale, expiring, renewal, overlap, cancellation, trial and its conversion: each derived by the server',
    async () => {
      const id = await newSubscriber();
      expect(await stateOf(id)).toEqual({ status: 'none', plan_id: null });
      expect((await sell(id, { plan_id: plans.short, starts_on: today, amount_paid: 500 })).status).toBe(201);
      expect(await stateOf(id)).toEqual({ status: 'expiring', plan_id: plans.short });
      expect((await sell(id, { plan_id: plans.year, starts_on: day(10), amount_paid: 999.99 })).status).toBe(201);
      expect(await stateOf(id)).toEqual({ status: 'active', plan_id: plans.short });
      // Overlap: a second plan in force from today; the one begun last is the plan.
      const overlap = await sell(id, { plan_id: plans.other, starts_on: today, amount_paid: 100 });
      expect(await stateOf(id)).toMatchObject({ status: 'active' });
      for (const subscription of (await send('GET', `subscribers/${id}/subscriptions`)).body.data as unknown as Array<{
        id: number;
        state: string;
      }>) {
        if (subscription.state === 'current' || subscription.state === 'scheduled')
          expect((await send('POST', `subscribers/${id}/subscriptions/${subscription.id}/cancel`)).status).toBe(200);
      }
      expect(await stateOf(id)).toEqual({ status: 'cancelled', plan_id: null });
      // Every sale and cancellation has its audit entry, whether or not the status moved.
      const audited = await server.db.query<{ action: string }>(
        `SELECT action FROM audit_log WHERE module = 'SUBSCRIBERS' AND record_id = $1 AND action <> 'create' ORDER BY id`,
        [id],
      );
      expect(audited.map((row) => row.action)).toEqual([
        'subscribe',
        'subscribe',
        'subscribe',
        'subscription_cancel',
        'subscription_cancel',
        'subscription_cancel',
      ]);
      expect(
        (
          await send(
            'POST',
            `subscribers/${id}/subscriptions/${(overlap.body.data.subscription as { id: number }).id}/cancel`,
          )
        ).status,
      ).toBe(409);

      const trialist = await newSubscriber();
      expect((await sell(trialist, { plan_id: plans.year, starts_on: today, is_trial: true })).status).toBe(201);
      expect(await stateOf(trialist)).toEqual({ status: 'trial', plan_id: plans.year });
      const trial = (
        (await send('GET', `subscribers/${trialist}/subscriptions`)).body.data as unknown as Array<{
          ends_on: string;
          list_price: number;
          amount_due: number;
        }>
      )[0]!;
      expect(trial).toMatchObject({ ends_on: day(13), list_price: 0, amount_due: 0 });
      expect((await sell(trialist, { plan_id: plans.other, starts_on: today, amount_paid: 100 })).status).toBe(201);
      expect(await stateOf(trialist)).toEqual({ status: 'active', plan_id: plans.other });

      const lapsed = await newSubscriber();
      expect((await sell(lapsed, { plan_id: plans.short, starts_on: day(-40), amount_paid: 500 })).status).toBe(201);
      expect(await stateOf(lapsed)).toEqual({ status: 'expired', plan_id: null });
      const later = await newSubscriber();
      expect((await sell(later, { plan_id: plans.year, starts_on: day(5) })).status).toBe(201);
      expect(await stateOf(later)).toEqual({ status: 'none', plan_id: null });
    },
  );

  it.skipIf(skip)(
    'status and plan cannot be written: create, PUT, set on all matching, import, restore of a version',
    async () => {
      const id = await newSubscriber();
      await sell(id, { plan_id: plans.year, starts_on: today, amount_paid: 999.99 });
      const refused = await send('POST', 'subscribers', {
        name: 'Typed',
        email: 'typed@example.com',
        mobile: '9876543210',
        country_id: countryId,
        status: 'active',
        plan_id: plans.year,
      });
      expect(refused.status).toBe(400);
      expect(Object.keys(refused.body.errors ?? {})).toEqual(expect.arrayContaining(['status', 'plan_id']));
      const current = await send('GET', `subscribers/${id}`);
      const { name, email, mobile } = current.body.data;
      const put = await send(
        'PUT',
        `subscribers/${id}`,
        { name, email, mobile, country_id: countryId, status: 'expired' },
        { ...admin, 'if-match': current.etag },
      );
      expect(put.status).toBe(400);
      expect(put.body.errors).toHaveProperty('status');
      const bulk = await send('POST', `subscribers/bulk/set?q=${encodeURIComponent(String(email))}`, {
        field: 'status',
        value: 'expired',
        expected_count: 1,
      });
      expect(bulk.status).toBe(400);
      expect(
        (
          await send('POST', `subscribers/bulk/set?q=${encodeURIComponent(String(email))}`, {
            field: 'plan_id',
            value: plans.other,
            expected_count: 1,
          })
        ).status,
      ).toBe(400);

      const boundary = '----derived';
      const csv = `Email,Status,Current plan\n${String(email)},expired,${plans.other}\n`;
      const payload = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
      );
      const uploaded = await server.app.inject({
        method: 'POST',
        url: '/api/v1/subscribers/import',
        headers: { ...admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(uploaded.statusCode, uploaded.body).toBe(201);
      const mapping = (uploaded.json().data as { mapping: Record<string, string | null> }).mapping;
      expect(mapping).toEqual({ Email: 'email', Status: null, 'Current plan': null });
      const forced = await send('POST', `subscribers/import/${(uploaded.json().data as { id: number }).id}/dry-run`, {
        mapping: { ...mapping, Status: 'status' },
      });
      expect(forced.status).toBe(400);

      // A version from before the sale restores what was typed, never the status the sale brought.
      const history = (await send('GET', `subscribers/${id}/history`)).body.data as unknown as Array<{
        id: number;
        action: string;
      }>;
      const created = history.find((entry) => entry.action === 'create')!;
      const latest = await send('GET', `subscribers/${id}`);
      const restored = await send('POST', `subscribers/${id}/history/${created.id}/restore`, undefined, {
        ...admin,
        'if-match': latest.etag,
      });
      expect([200, 409]).toContain(restored.status);
      expect(await stateOf(id)).toEqual({ status: 'active', plan_id: plans.year });
    },
  );

  it.skipIf(skip)(
    'money is exact: list price less the voucher, capped; paid at most the amount due; payments sum to the paisa',
    async () => {
      const percent = await send('POST', 'vouchers', {
        code: 'PCT15',
        discount_type: 'percent',
        discount_value: 15,
        max_discount: 1000,
        valid_from: day(-1),
        valid_to: day(30),
      });
      expect(percent.status, JSON.stringify(percent.body)).toBe(201);
      const id = await newSubscriber();
      const quote = await send('GET', `subscribers/${id}/subscription-quote?plan_id=${plans.year}&voucher_code=pct15`);
      expect(quote.body.data).toEqual({
        list_price: 999.99,
        discount: 150,
        amount_due: 849.99,
        days: 365,
        voucher_code: 'PCT15',
      });
      const over = await sell(id, { plan_id: plans.year, starts_on: today, voucher_code: 'PCT15', amount_paid: 850 });
      expect(over.status).toBe(400);
      expect(over.body.errors).toEqual({ amount_paid: 'More than the amount due, ₹849.99.' });
      expect(
        (
          await sell(id, {
            plan_id: plans.year,
            starts_on: today,
            voucher_code: ' pct15 ',
            amount_paid: 849.99,
            payment_reference: 'NEFT-849',
          })
        ).status,
      ).toBe(201);
      // Any amount to the paisa is taken, though most are not exact multiples of 0.01 in binary floating point.
      const odd = await newSubscriber();
      for (const [index, amount] of [17999.1, 1.15, 19.99].entries()) {
        expect(
          (
            await send('POST', `subscribers/${odd}/top-ups`, {
              points: 1,
              amount,
              idempotency_key: `odd-amount-${index}`,
            })
          ).status,
        ).toBe(201);
      }
      expect(
        (
          await send('POST', `subscribers/${odd}/top-ups`, {
            points: 1,
            amount: 1.155,
            idempotency_key: 'odd-amount-x',
          })
        ).body.errors,
      ).toHaveProperty('amount');
      await send('POST', `subscribers/${id}/top-ups`, { points: 10, amount: 0.1, idempotency_key: 'top-up-dime-1' });
      await send('POST', `subscribers/${id}/top-ups`, {
        points: 10,
        amount: 0.2,
        idempotency_key: 'top-up-dime-2',
        payment_reference: 'UPI-2',
      });
      const [stored] = await server.db.query<{ due: string; paid: string; total: string }>(
        `SELECT s.amount_due::text AS due, s.amount_paid::text AS paid, (SELECT sum(amount)::text FROM payments WHERE subscriber_id = $1) AS total
         FROM subscriber_subscriptions s WHERE s.subscriber_id = $1`,
        [id],
      );
      expect(stored).toEqual({ due: '849.99', paid: '849.99', total: '850.29' });
      expect((await send('GET', `subscribers/${id}/summary`)).body.data.paid_total).toBe(850.29);
      const payments = (await send('GET', `subscribers/${id}/payments`)).body.data as unknown as Array<{
        kind: string;
        amount: number;
        reference: string | null;
        note: string;
      }>;
      expect(payments.map(({ kind, amount, reference, note }) => ({ kind, amount, reference, note }))).toEqual([
        { kind: 'top_up', amount: 0.2, reference: 'UPI-2', note: '10 points' },
        { kind: 'top_up', amount: 0.1, reference: null, note: '10 points' },
        { kind: 'subscription', amount: 849.99, reference: 'NEFT-849', note: 'Year' },
      ]);
    },
  );

  it.skipIf(skip)(
    'a voucher is checked (unknown, inactive, not yet, expired, used up, another plan) and its last use goes to one of two parallel sales',
    async () => {
      const voucher = async (code: string, extra: Record<string, unknown> = {}) =>
        (
          await send('POST', 'vouchers', {
            code,
            discount_type: 'flat',
            discount_value: 50,
            valid_from: day(-5),
            valid_to: day(5),
            ...extra,
          })
        ).body.data.id;
      await voucher('SOON1', { valid_from: day(2) });
      await voucher('GONE1', { valid_from: day(-10), valid_to: day(-1) });
      await voucher('PLAN1', { plan_id: plans.other });
      const off = await voucher('OFF1');
      const latest = await send('GET', `vouchers/${off}`);
      await send('PATCH', 'vouchers/status', { ids: [off], is_active: false });
      expect(latest.status).toBe(200);
      const last = await voucher('LAST1', { usage_limit: 1 });
      const id = await newSubscriber();
      const reason = async (code: string) =>
        (await sell(id, { plan_id: plans.year, starts_on: today, voucher_code: code })).body.errors?.voucher_code;
      expect(await reason('NOPE1')).toBe('No voucher has this code.');
      expect(await reason('OFF1')).toBe('This voucher is not active.');
      expect(await reason('SOON1')).toMatch(/^This voucher is valid from \d{2} \w{3} \d{4}\.$/);
      expect(await reason('GONE1')).toMatch(/^This voucher expired on \d{2} \w{3} \d{4}\.$/);
      expect(await reason('PLAN1')).toBe('This voucher is for the Other plan.');

      const other = await newSubscriber();
      const results = await Promise.all(
        [id, other].map((buyer) =>
          sell(buyer, { plan_id: plans.year, starts_on: today, voucher_code: 'LAST1', amount_paid: 949.99 }),
        ),
      );
      expect(results.map((result) => result.status).sort()).toEqual([201, 400]);
      expect(results.find((result) => result.status === 400)!.body.errors).toEqual({
        voucher_code: 'This voucher has been used up.',
      });
      expect((await send('GET', `vouchers/${last}`)).body.data.used_count).toBe(1);
      const [{ uses }] = (await server.db.query<{ uses: number }>(
        'SELECT count(*)::int AS uses FROM subscriber_subscriptions WHERE voucher_id = $1',
        [last],
      )) as [{ uses: number }];
      expect(uses).toBe(1);
    },
  );
});
