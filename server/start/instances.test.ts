import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3ServerUnavailable, startS3Server, type S3TestServer } from '../modules/uploads/testing/s3Server.ts';
import { recentTradeCsv } from '../modules/uploads/testing/tradeCsv.ts';
import { BACKOFF_FROM_FAILURE } from '../modules/auth/throttle.ts';
import { TRENDING_REFRESH_LOCK } from '../modules/reports/trending.ts';
import { InstanceGroup } from '../testing/instances.ts';
import { until } from '../testing/until.ts';
import { postgresUnavailable, TEST_DATABASE_URL } from '../testing/testServer.ts';

/**
 * Three real servers on one PostgreSQL and one S3-compatible bucket (moto_server), requests alternated between them
 * as a load balancer alternates them: they behave as one service.
 */
const postgres = await postgresUnavailable();
const s3 = s3ServerUnavailable();
const skip = postgres ? `PostgreSQL at ${TEST_DATABASE_URL} is unreachable (${postgres})` : s3;
if (skip) console.warn(`Several-instance tests SKIPPED: ${skip}.`);

const ADMIN = { email: 'admin@example.com', password: 'Admin@12345' };
const OPERATOR = { email: 'operator@example.com', password: 'Operator@12345' };
const INSTANCES = [0, 1, 2];

let bucketServer: S3TestServer | undefined;
let group: InstanceGroup;
let admin: string;

beforeAll(async () => {
  if (skip) return;
  bucketServer = await startS3Server();
  group = await InstanceGroup.start(INSTANCES.length, {
    bucket: await bucketServer.createBucket(),
    env: { UPLOAD_RETRY_SECONDS: '1' },
  });
  await group.publishEveryImport();
  admin = (await group.signIn(ADMIN.email, ADMIN.password)).access;
}, 600_000);

afterAll(async () => {
  await group?.close();
  await bucketServer?.close();
}, 120_000);

describe('several instances on one PostgreSQL and one bucket behave as one service', { timeout: 120_000 }, () => {
  it.skipIf(skip)(
    'a session signed in on one instance is valid on all; a refresh on one, then the old refresh token reused on another, ends it on all',
    async () => {
      const pair = await group.signIn(OPERATOR.email, OPERATOR.password);
      for (const index of INSTANCES)
        expect(
          (await group.at(index, 'GET', 'user/permission', { token: pair.access })).status,
          `instance ${index}`,
        ).toBe(200);

      const rotated = await group.at<{ data: { access: string; refresh: string } }>(1, 'POST', 'token/refresh', {
        body: { refresh: pair.refresh },
      });
      expect(rotated.status).toBe(200);
      const reused = await group.at(2, 'POST', 'token/refresh', { body: { refresh: pair.refresh } });
      expect(reused.status).toBe(401);
      // The reuse revoked the whole family: the newest pair is refused everywhere too.
      expect(
        (await group.at(0, 'POST', 'token/refresh', { body: { refresh: rotated.body.data.refresh } })).status,
      ).toBe(401);
      for (const index of INSTANCES)
        expect(
          (await group.at(index, 'GET', 'user/permission', { token: rotated.body.data.access })).status,
          `instance ${index}`,
        ).toBe(401);
    },
  );

  it.skipIf(skip)('a logout on one instance ends the session on every other at its next request', async () => {
    const pair = await group.signIn(OPERATOR.email, OPERATOR.password);
    expect((await group.at(2, 'GET', 'user/permission', { token: pair.access })).status).toBe(200);
    expect((await group.at(0, 'POST', 'logout', { token: pair.access, body: { refresh: pair.refresh } })).status).toBe(
      200,
    );
    for (const index of [1, 2])
      expect(
        (await group.at(index, 'GET', 'user/permission', { token: pair.access })).status,
        `instance ${index}`,
      ).toBe(401);
    expect((await group.at(1, 'POST', 'token/refresh', { body: { refresh: pair.refresh } })).status).toBe(401);
  });

  it.skipIf(skip)(
    "a role's permissions changed on one instance apply to its signed-in users on every other at their next request",
    async () => {
      const operator = (await group.signIn(OPERATOR.email, OPERATOR.password)).access;
      const [role] = await group.sql<{ id: number }>("SELECT id::int AS id FROM roles WHERE name = 'Data Operator'");
      const before = await group.at<{ data: Record<string, string[]> }>(0, 'GET', `roles/${role!.id}/permissions`, {
        token: admin,
      });
      const [{ version }] = (await group.sql<{ version: number }>('SELECT version FROM roles WHERE id = $1', [
        role!.id,
      ])) as [{ version: number }];
      expect((await group.at(1, 'GET', 'vouchers', { token: operator })).status).toBe(403);

      const granted = { ...before.body.data, VOUCHER: ['view'] };
      const saved = await putPermissions(0, role!.id, version, granted);
      expect(saved.status).toBe(200);
      expect((await group.at(1, 'GET', 'vouchers', { token: operator })).status).toBe(200);
      const seen = await group.at<{ data: Record<string, { actions: Record<string, unknown> }> }>(
        2,
        'GET',
        'user/permission',
        { token: operator },
      );
      expect(Object.keys(seen.body.data.VOUCHER!.actions)).toEqual(['view']);

      const [{ version: now }] = (await group.sql<{ version: number }>('SELECT version FROM roles WHERE id = $1', [
        role!.id,
      ])) as [{ version: number }];
      expect((await putPermissions(2, role!.id, now, before.body.data)).status).toBe(200);
      expect((await group.at(0, 'GET', 'vouchers', { token: operator })).status).toBe(403);
    },
  );

  it.skipIf(skip)(
    'a record and a list page read (and kept in memory) on every instance show a change made on another, or straight in SQL, at the next request',
    async () => {
      const list = () =>
        Promise.all(
          INSTANCES.map((index) =>
            group.at<{ data: Array<{ id: number; is_active: boolean; version: number }> }>(
              index,
              'GET',
              'vouchers?_page_size=5&_sort=id',
              { token: admin },
            ),
          ),
        );
      const first = (await list())[0]!.body.data[0]!;
      await list();
      const read = () =>
        Promise.all(
          INSTANCES.map((index) =>
            group.at<{ data: { is_active: boolean; version: number } }>(index, 'GET', `vouchers/${first.id}`, {
              token: admin,
            }),
          ),
        );
      await read();

      const changed = await group.at(1, 'PATCH', `vouchers/${first.id}/status`, {
        token: admin,
        body: { is_active: !first.is_active },
        ifMatch: first.version,
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      for (const answer of await read())
        expect(answer.body.data).toMatchObject({ is_active: !first.is_active, version: first.version + 1 });
      for (const answer of await list())
        expect(answer.body.data[0]).toMatchObject({ id: first.id, is_active: !first.is_active });

      await group.sql('UPDATE vouchers SET is_active = $2 WHERE id = $1', [first.id, first.is_active]);
      for (const answer of await read())
        expect(answer.body.data).toMatchObject({ is_active: first.is_active, version: first.version + 2 });
    },
  );

  it.skipIf(skip)('login throttling counts the failures made on every instance together', async () => {
    const account = { email: 'sales@example.com', password: 'Sales@12345' };
    const answers: number[] = [];
    for (let attempt = 0; attempt < BACKOFF_FROM_FAILURE; attempt += 1)
      answers.push(
        (await group.at(attempt % 3, 'POST', 'login', { body: { ...account, password: `Wrong@${attempt}xyz` } }))
          .status,
      );
    expect(answers).toEqual(Array(BACKOFF_FROM_FAILURE).fill(401));
    // Locked now, whichever instance is asked, even with the right password.
    for (const index of INSTANCES)
      expect((await group.at(index, 'POST', 'login', { body: account })).status, `instance ${index}`).toBe(429);
    await group.sql('DELETE FROM login_throttle; DELETE FROM client_login_throttle');
  });

  it.skipIf(skip)(
    'an upload announced on one instance and completed on another is imported once; its log reads the same on the third',
    async () => {
      const uploadId = await group.upload(admin, recentTradeCsv(40), { announceAt: 0, completeAt: 1 });
      await until(async () => (await group.uploadOutcome(uploadId)).processed, `upload ${uploadId} processed`);
      expect(await group.uploadOutcome(uploadId)).toMatchObject({
        status: 'published',
        records: 40,
        error: null,
        notifications: 1,
      });
      const log = await group.at<{ data: { upload: { status: string; rows_accepted: number } } }>(
        2,
        'GET',
        `uploads/${uploadId}/log`,
        { token: admin },
      );
      expect(log.body.data.upload).toMatchObject({ status: 'published', rows_accepted: 40 });
    },
  );

  it.skipIf(skip)(
    'a trending refresh asked on every instance at once is computed once, and every instance answers with that one',
    async () => {
      const uploadId = await group.upload(admin, recentTradeCsv(70), { announceAt: 2, completeAt: 0 });
      await until(async () => (await group.uploadOutcome(uploadId)).processed, `upload ${uploadId} processed`);
      // The refreshes' lock held meanwhile, so that all three are asked before any of them computes.
      const lock = await group.holdLock('SELECT pg_advisory_xact_lock($1)', [TRENDING_REFRESH_LOCK]);
      const refreshes = Promise.all(
        INSTANCES.map((index) =>
          group.at<{ data: { synced_at: string; rows: number } }>(index, 'POST', 'sync-trending-data/refresh', {
            token: admin,
            body: {},
          }),
        ),
      );
      try {
        await until(async () => (await lock.waiters()).length === INSTANCES.length, 'three refreshes waiting');
      } finally {
        await lock.release();
      }
      const answers = await refreshes;
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(new Set(answers.map((answer) => answer.body.data.synced_at)).size).toBe(1);
      const expected = await group.sql<{ hs_code: string; shipments: number }>(
        "SELECT hs_code, count(*)::int AS shipments FROM trade_records WHERE shipment_date >= current_date - interval '12 months' GROUP BY hs_code ORDER BY hs_code",
      );
      expect(answers[0]!.body.data.rows).toBe(expected.length);
      expect(await group.sql('SELECT hs_code, shipments FROM trending_products ORDER BY hs_code')).toEqual(expected);
    },
  );
});

function putPermissions(index: number, roleId: number, version: number, permissions: Record<string, string[]>) {
  return group.at(index, 'PUT', `roles/${roleId}/permissions`, {
    token: admin,
    body: { permissions },
    ifMatch: version,
  });
}
