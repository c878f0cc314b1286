import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3ServerUnavailable, startS3Server, type S3TestServer } from '../modules/uploads/testing/s3Server.ts';
import { recentTradeCsv } from '../modules/uploads/testing/tradeCsv.ts';
import { InstanceGroup } from '../testing/instances.ts';
import type { HeldLock } from '../testing/heldLock.ts';
import { NoAnswer } from '../testing/instanceRequests.ts';
import { until } from '../testing/until.ts';
import { postgresUnavailable, TEST_DATABASE_URL } from '../testing/testServer.ts';

/**
 * Three real servers on one PostgreSQL and one bucket, one of them killed (kill -9) or frozen in the middle of a
 * write or an import while the others serve: nothing is lost and nothing is applied twice.
 */
const postgres = await postgresUnavailable();
const s3 = s3ServerUnavailable();
const skip = postgres ? `PostgreSQL at ${TEST_DATABASE_URL} is unreachable (${postgres})` : s3;
if (skip) console.warn(`Several-instance failure tests SKIPPED: ${skip}.`);

const INSTANCES = 3;
const LEASE_SECONDS = 2;

let bucketServer: S3TestServer | undefined;
let group: InstanceGroup;
let admin: string;

beforeAll(async () => {
  if (skip) return;
  bucketServer = await startS3Server();
  const env = { UPLOAD_RETRY_SECONDS: '1', UPLOAD_LEASE_SECONDS: String(LEASE_SECONDS) };
  group = await InstanceGroup.start(INSTANCES, { bucket: await bucketServer.createBucket(), env });
  await group.publishEveryImport();
  admin = (await group.signIn('admin@example.com', 'Admin@12345')).access;
}, 600_000);

afterAll(async () => {
  await group?.close();
  await bucketServer?.close();
}, 120_000);

/** Runs `work` while a connection of the test's own holds a lock (taken by `lock`) that instances wait for, then releases it. */
async function holding<T>(lock: string, params: unknown[], work: (held: HeldLock) => Promise<T>): Promise<T> {
  const held = await group.holdLock(lock, params);
  try {
    return await work(held);
  } finally {
    await held.release();
  }
}

const noAnswer = (promise: Promise<unknown>) =>
  promise.then(
    (answer) => ({ answered: answer }),
    (error: unknown) => ({ error }),
  );
const other = (index: number, offset = 1) => (index + offset) % INSTANCES;

describe('an instance killed or frozen while the others serve', { timeout: 180_000 }, () => {
  it.skipIf(skip)(
    'kill -9 during a top-up: the client sends it again, with its key, to another instance; it is credited once',
    async () => {
      const [subscriber] = await group.sql<{ id: number; balance: number }>(
        'SELECT id::int AS id, points_balance::int AS balance FROM subscribers ORDER BY id LIMIT 1 OFFSET 7',
      );
      const topUp = { points: 250, amount: 999, idempotency_key: `killed-${randomBytes(4).toString('hex')}` };
      const path = `subscribers/${subscriber!.id}/top-ups`;
      const { victim, lost } = await holding(
        'SELECT id FROM subscribers WHERE id = $1 FOR UPDATE',
        [subscriber!.id],
        async (held) => {
          const pending = noAnswer(group.at(0, 'POST', path, { token: admin, body: topUp }));
          const waiting = await held.firstWaiter();
          await group.kill(waiting);
          return { victim: waiting, lost: await pending };
        },
      );
      expect(victim).toBe(0);
      expect(lost).toMatchObject({ error: expect.any(NoAnswer) });

      const retried = await group.at(1, 'POST', path, { token: admin, body: topUp });
      expect(retried.status).toBe(201);
      const again = await group.at(2, 'POST', path, { token: admin, body: topUp });
      expect(again.status).toBe(200);
      expect(again.body.message).toBe('This top-up was already added.');
      expect(
        await group.sql('SELECT points::int AS points FROM points_ledger WHERE idempotency_key = $1', [
          topUp.idempotency_key,
        ]),
      ).toEqual([{ points: 250 }]);
      expect(
        (
          await group.sql<{ balance: number }>('SELECT points_balance::int AS balance FROM subscribers WHERE id = $1', [
            subscriber!.id,
          ])
        )[0]!.balance,
      ).toBe(subscriber!.balance + 250);
      await group.launch(victim);
    },
  );

  it.skipIf(skip)(
    'kill -9 under a load of top-ups on every instance: each one the clients sent is credited exactly once',
    async () => {
      const subscribers = (
        await group.sql<{ id: number }>('SELECT id::int AS id FROM subscribers ORDER BY id LIMIT 5 OFFSET 20')
      ).map((row) => row.id);
      const prefix = `load-${randomBytes(4).toString('hex')}`;
      const sent = new Map<string, number>();
      let stopping = false;
      const client = async (lane: number) => {
        for (let index = 0; !stopping; index += 1) {
          const key = `${prefix}-${lane}-${index}`;
          const subscriber = subscribers[(lane + index) % subscribers.length]!;
          sent.set(key, subscriber);
          // A request without an answer (its instance died) is sent again, with the same key, until one answers.
          for (let tries = 0; ; tries += 1) {
            try {
              const answer = await group.send('POST', `subscribers/${subscriber}/top-ups`, {
                token: admin,
                body: { points: 10, amount: 10, idempotency_key: key },
              });
              expect([200, 201], JSON.stringify(answer.body)).toContain(answer.status);
              break;
            } catch (error) {
              if (!(error instanceof NoAnswer) || tries > 20) throw error;
            }
          }
        }
      };
      const clients = Promise.all([0, 1, 2, 3].map(client));
      await until(() => sent.size >= 40, 'some top-ups');
      const victim = 1;
      await group.kill(victim);
      const atKill = sent.size;
      await until(() => sent.size >= atKill + 40, 'top-ups after the kill');
      stopping = true;
      await clients;

      const credited = await group.sql<{ idempotency_key: string; subscriber_id: number }>(
        "SELECT idempotency_key, subscriber_id::int AS subscriber_id FROM points_ledger WHERE idempotency_key LIKE $1 || '-%' ORDER BY idempotency_key",
        [prefix],
      );
      expect(credited.map((row) => row.idempotency_key)).toEqual([...sent.keys()].sort());
      expect(credited.every((row) => row.subscriber_id === sent.get(row.idempotency_key))).toBe(true);
      // Every subscriber's balance is the sum of its ledger, entry after entry.
      const broken = await group.sql(
        `SELECT subscriber_id FROM (SELECT subscriber_id, balance_after, sum(points) OVER (PARTITION BY subscriber_id ORDER BY id) AS running FROM points_ledger) entries
        WHERE balance_after <> running`,
      );
      expect(broken).toEqual([]);
      await group.launch(victim);
    },
  );

  it.skipIf(skip)(
    'kill -9 during a bulk change: none of it is applied; sent again to another instance it is applied once, and every instance shows it',
    async () => {
      const rows = await group.sql<{ id: number; version: number }>(
        'SELECT id::int AS id, version FROM subscribers WHERE is_active ORDER BY id LIMIT 200 OFFSET 100',
      );
      const ids = rows.map((row) => row.id);
      const change = { ids, is_active: false };
      const { victim, lost } = await holding(
        'SELECT id FROM subscribers WHERE id = $1 FOR UPDATE',
        [ids.at(-1)],
        async (held) => {
          const pending = noAnswer(group.at(2, 'PATCH', 'subscribers/status', { token: admin, body: change }));
          const waiting = await held.firstWaiter();
          await group.kill(waiting);
          return { victim: waiting, lost: await pending };
        },
      );
      expect(victim).toBe(2);
      expect(lost).toMatchObject({ error: expect.any(NoAnswer) });
      const untouched = await group.sql<{ id: number; version: number }>(
        'SELECT id::int AS id, version FROM subscribers WHERE id = ANY($1::bigint[]) AND is_active ORDER BY id',
        [ids],
      );
      expect(untouched).toEqual(rows);

      const applied = await group.at<{ data: { updated: number } }>(0, 'PATCH', 'subscribers/status', {
        token: admin,
        body: change,
      });
      expect(applied.body.data.updated).toBe(ids.length);
      const after = await group.sql<{ id: number; version: number }>(
        'SELECT id::int AS id, version FROM subscribers WHERE id = ANY($1::bigint[]) AND NOT is_active ORDER BY id',
        [ids],
      );
      expect(after).toEqual(rows.map((row) => ({ id: row.id, version: row.version + 1 })));
      await group.launch(victim);
      for (let index = 0; index < INSTANCES; index += 1) {
        const record = await group.at<{ data: { is_active: boolean; version: number } }>(
          index,
          'GET',
          `subscribers/${ids[0]}`,
          { token: admin },
        );
        expect(record.body.data, `instance ${index}`).toMatchObject({
          is_active: false,
          version: rows[0]!.version + 1,
        });
      }
    },
  );

  it.skipIf(skip)(
    'kill -9 during an upload import: another instance takes the upload up and imports it once',
    async () => {
      const { uploadId, victim } = await holding('LOCK TABLE trade_records IN SHARE MODE', [], async (held) => {
        const id = await group.upload(admin, recentTradeCsv(120), { announceAt: 0, completeAt: 1 });
        const importer = await held.firstWaiter();
        await group.kill(importer);
        return { uploadId: id, victim: importer };
      });
      await until(async () => (await group.uploadOutcome(uploadId)).processed, `upload ${uploadId} taken up again`);
      const outcome = await group.uploadOutcome(uploadId);
      expect(outcome).toMatchObject({ status: 'published', records: 120, error: null, notifications: 1 });
      expect(outcome.attempts).toBeGreaterThanOrEqual(2);
      await group.launch(victim);
    },
  );

  it.skipIf(skip)(
    'instances starting while an upload is being imported leave it to its importer; it is imported once',
    async () => {
      // The month exists: the importer waits inside its claim (publishing), which the others skip.
      const period = await group.monthMade();
      const { uploadId, importer } = await holding('LOCK TABLE trade_records IN SHARE MODE', [], async (held) => {
        const id = await group.upload(admin, recentTradeCsv(80), { announceAt: 1, completeAt: 2, period });
        const waiting = await held.firstWaiter();
        // The two others stop and start again meanwhile: at start each looks for uploads waiting for processing.
        const others = [other(waiting), other(waiting, 2)];
        expect(await Promise.all(others.map((index) => group.stop(index)))).toEqual([0, 0]);
        await Promise.all(others.map((index) => group.launch(index)));
        expect((await group.uploadOutcome(id)).processed).toBe(false);
        return { uploadId: id, importer: waiting };
      });
      await until(async () => (await group.uploadOutcome(uploadId)).processed, `upload ${uploadId} processed`);
      expect(await group.uploadOutcome(uploadId)).toMatchObject({
        status: 'published',
        records: 80,
        error: null,
        notifications: 1,
      });
      expect(group.instances[importer]!.process!.output()).not.toContain('taken up again');
    },
  );

  it.skipIf(skip)(
    'one instance imports an upload; every instance shows its progress as it goes, and its outcome',
    async () => {
      const period = await group.monthMade();
      const rows = 90;
      const uploadId = await holding('LOCK TABLE trade_records IN SHARE MODE', [], async (held) => {
        const id = await group.upload(admin, recentTradeCsv(rows), { announceAt: 0, completeAt: 1, period });
        await held.firstWaiter();
        // Its rows are read and loaded; it waits to publish them. Each instance reads the progress its importer wrote.
        for (let index = 0; index < INSTANCES; index += 1) {
          const log = await group.at<{
            data: {
              upload: { status: string };
              progress: { rows_read: number; rows_accepted: number; bytes_read: number; bytes_total: number } | null;
            };
          }>(index, 'GET', `uploads/${id}/log`, { token: admin });
          expect(log.status, `instance ${index}`).toBe(200);
          expect(log.body.data.upload.status, `instance ${index}`).toBe('processing');
          expect(log.body.data.progress, `instance ${index}`).toMatchObject({ rows_read: rows, rows_accepted: rows });
          expect(log.body.data.progress!.bytes_read, `instance ${index}`).toBe(log.body.data.progress!.bytes_total);
        }
        return id;
      });
      await until(async () => (await group.uploadOutcome(uploadId)).processed, `upload ${uploadId} processed`);
      for (let index = 0; index < INSTANCES; index += 1) {
        const log = await group.at<{ data: { upload: { status: string; rows_accepted: number } } }>(
          index,
          'GET',
          `uploads/${uploadId}/log`,
          { token: admin },
        );
        expect(log.body.data.upload, `instance ${index}`).toMatchObject({ status: 'published', rows_accepted: rows });
      }
    },
  );

  // Frozen while it makes the upload's month (before its claim: that DDL has a lease of its own), or inside its claim.
  for (const monthMade of [false, true]) {
    const where = monthMade ? 'inside its claim' : "while making the upload's month";
    it.skipIf(skip)(
      `an instance frozen mid-import (${where}) loses its hold when its lease runs out; another imports the upload once; thawed, it goes on serving`,
      async () => {
        const period = monthMade ? await group.monthMade() : undefined;
        const { uploadId, frozen } = await holding('LOCK TABLE trade_records IN SHARE MODE', [], async (held) => {
          const id = await group.upload(admin, recentTradeCsv(60), {
            announceAt: 2,
            completeAt: 0,
            ...(period ? { period } : {}),
          });
          const importer = await held.firstWaiter();
          group.instances[importer]!.process!.child.kill('SIGSTOP');
          return { uploadId: id, frozen: importer };
        });
        // Its statement went on inside the database and its transaction now waits for the frozen process: the lease ends it.
        await until(
          async () => (await group.uploadOutcome(uploadId)).processed,
          `upload ${uploadId} taken up after the lease`,
          30_000,
        );
        const outcome = await group.uploadOutcome(uploadId);
        expect(outcome).toMatchObject({ status: 'published', records: 60, notifications: 1 });
        const server = group.instances[frozen]!.process!;
        server.child.kill('SIGCONT');
        await server.printed('upload processing stopped');
        expect(server.output()).toContain('it will be taken up again');
        await until(
          async () => (await group.at(frozen, 'GET', '/readyz').catch(() => null))?.status === 200,
          'the thawed instance ready',
        );
        expect(await group.uploadOutcome(uploadId)).toEqual(outcome);
      },
    );
  }
});
