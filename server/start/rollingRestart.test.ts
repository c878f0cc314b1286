import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3ServerUnavailable, startS3Server, type S3TestServer } from '../modules/uploads/testing/s3Server.ts';
import { recentTradeCsv } from '../modules/uploads/testing/tradeCsv.ts';
import { InstanceGroup } from '../testing/instances.ts';
import { until } from '../testing/until.ts';
import { postgresUnavailable, TEST_DATABASE_URL } from '../testing/testServer.ts';

/**
 * Three real servers on one PostgreSQL and one bucket behind a balancer that checks /readyz (as a load balancer
 * does), stopped with SIGTERM as an orchestrator stops them: a rolling restart under load loses nothing it accepted,
 * and a stop waits for the upload import in flight, up to STOP_GRACE_SECONDS.
 */
const postgres = await postgresUnavailable();
const s3 = s3ServerUnavailable();
const skip = postgres ? `PostgreSQL at ${TEST_DATABASE_URL} is unreachable (${postgres})` : s3;
if (skip) console.warn(`Rolling restart tests SKIPPED: ${skip}.`);

const INSTANCES = 3;
const GRACE_SECONDS = 3;

let bucketServer: S3TestServer | undefined;
let group: InstanceGroup;
let admin: string;

beforeAll(async () => {
  if (skip) return;
  bucketServer = await startS3Server();
  const env = { UPLOAD_RETRY_SECONDS: '1', STOP_DRAIN_SECONDS: '1', STOP_GRACE_SECONDS: String(GRACE_SECONDS) };
  group = await InstanceGroup.start(INSTANCES, { bucket: await bucketServer.createBucket(), env });
  await group.publishEveryImport();
  admin = (await group.signIn('admin@example.com', 'Admin@12345')).access;
}, 600_000);

afterAll(async () => {
  await group?.close();
  await bucketServer?.close();
}, 120_000);

describe('stopping instances with SIGTERM', { timeout: 300_000 }, () => {
  it.skipIf(skip)(
    'a rolling restart of every instance under load answers every request it accepted, and keeps every acknowledged write once',
    async () => {
      const [subscriber] = await group.sql<{ id: number }>(
        'SELECT id::int AS id FROM subscribers ORDER BY id LIMIT 1 OFFSET 40',
      );
      const prefix = `rolling_${randomBytes(3).toString('hex')}`;
      const acknowledged = { topUps: [] as string[], lookupTypes: [] as string[] };
      const failures: string[] = [];
      let answered = 0;
      let stopping = false;
      const client = async (lane: number) => {
        for (let index = 0; !stopping; index += 1) {
          const key = `${prefix}_${lane}_${index}`;
          const [method, path, body, kept] = (
            [
              ['GET', 'vouchers?_page_size=20&_sort=code', undefined, null],
              [
                'POST',
                `subscribers/${subscriber!.id}/top-ups`,
                { points: 1, amount: 1, idempotency_key: key },
                acknowledged.topUps,
              ],
              ['GET', 'user/permission', undefined, null],
              ['POST', 'lookup-types', { code: key, name: `Rolling ${key}` }, acknowledged.lookupTypes],
            ] as const
          )[index % 4]!;
          try {
            const answer = await group.send(method, path, { token: admin, body });
            if (answer.status >= 300)
              failures.push(
                `${method} ${path} on instance ${answer.instance}: ${answer.status} ${JSON.stringify(answer.body)}`,
              );
            else kept?.push(key);
            answered += 1;
          } catch (error) {
            failures.push(`${method} ${path}: ${error instanceof Error ? error.message : String(error)}`);
          }
        }
      };
      const clients = Promise.all([0, 1, 2, 3].map(client));
      for (let index = 0; index < INSTANCES; index += 1) {
        const before = answered;
        expect(await group.stop(index), group.instances[index]!.process!.output()).toBe(0);
        expect(answered, 'requests answered while the instance stopped').toBeGreaterThan(before);
        await group.launch(index);
      }
      stopping = true;
      await clients;

      expect(failures).toEqual([]);
      const topUps = await group.sql<{ key: string }>(
        "SELECT idempotency_key AS key FROM points_ledger WHERE idempotency_key LIKE $1 || '%' ORDER BY 1",
        [prefix],
      );
      expect(topUps.map((row) => row.key)).toEqual([...acknowledged.topUps].sort());
      const lookupTypes = await group.sql<{ code: string }>(
        "SELECT code FROM lookup_types WHERE code LIKE $1 || '%' ORDER BY 1",
        [prefix],
      );
      expect(lookupTypes.map((row) => row.code)).toEqual([...acknowledged.lookupTypes].sort());
    },
  );

  it.skipIf(skip)('a stop lets the upload import in flight finish before the instance exits 0', async () => {
    const lock = await group.holdLock('LOCK TABLE trade_records IN SHARE MODE');
    let uploadId: number;
    let importer: number;
    try {
      uploadId = await group.upload(admin, recentTradeCsv(90), { announceAt: 0, completeAt: 1 });
      importer = await lock.firstWaiter();
      void group.stop(importer);
      // The drain is over and the port closed: the process waits for its import alone.
      await until(async () => !(await portAnswers(importer)), 'the stopping instance to close its port');
      expect(group.instances[importer]!.process!.child.exitCode).toBeNull();
    } finally {
      await lock.release();
    }
    expect(await group.instances[importer]!.process!.exited).toBe(0);
    expect(await group.uploadOutcome(uploadId)).toMatchObject({
      status: 'published',
      records: 90,
      error: null,
      notifications: 1,
    });
    await group.launch(importer);
  });

  it.skipIf(skip)(
    'an import still running STOP_GRACE_SECONDS after the drain is cut off (exit 1), rolled back, and imported once by another instance',
    async () => {
      const lock = await group.holdLock('LOCK TABLE trade_records IN SHARE MODE');
      let uploadId: number;
      let importer: number;
      try {
        uploadId = await group.upload(admin, recentTradeCsv(50), { announceAt: 2, completeAt: 0 });
        importer = await lock.firstWaiter();
        const exited = group.stop(importer);
        expect(await exited).toBe(1);
        expect(group.instances[importer]!.process!.output()).toContain(
          `Stopping took over ${GRACE_SECONDS} s (STOP_GRACE_SECONDS): exiting with work unfinished.`,
        );
        expect((await group.uploadOutcome(uploadId)).processed).toBe(false);
      } finally {
        await lock.release();
      }
      await until(
        async () => (await group.uploadOutcome(uploadId)).processed,
        `upload ${uploadId} taken up by another instance`,
      );
      expect(await group.uploadOutcome(uploadId)).toMatchObject({
        status: 'published',
        records: 50,
        error: null,
        notifications: 1,
      });
      await group.launch(importer);
    },
  );
});

function portAnswers(index: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${group.instances[index]!.port}/healthz`).then(
    async (response) => Boolean(await response.arrayBuffer()),
    () => false,
  );
}
