import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { S3Config } from '../config.ts';
import { applicationName, openPostgres, quoteIdentifier } from '../db/postgres.ts';
import { ensureMonth } from '../modules/uploads/tradePartitions.ts';
import { until } from './until.ts';
import { holdLock, type HeldLock } from './heldLock.ts';
import { NoAnswer, requestInstance, type Answer, type RequestOptions } from './instanceRequests.ts';
import { freePort, SERVER_READY, startServerProcess, stopProcess, type ServerProcess } from './serverProcess.ts';
import { TEST_DATABASE_URL } from './testServer.ts';
import { nextPeriod } from '../modules/uploads/testing/tradeCsv.ts';
import { sendFileOverHttp } from '../modules/uploads/testing/tusRequests.ts';
import { publishEveryImport } from '../modules/uploads/testing/reviewSettings.ts';

/** How often the balancer asks each instance's /readyz, as a load balancer's health check does (much faster here). */
const READINESS_CHECK_MS = 100;
/**
 * How long a /readyz answer may take before the instance counts as not ready: a loaded machine answers in seconds,
 * and a check that gave up sooner took a serving instance out of the balancer (a killed one is out at once: `kill`).
 */
const READINESS_TIMEOUT_MS = 5_000;

interface UploadOutcome {
  status: string;
  records: number;
  processed: boolean;
  error: string | null;
  notifications: number;
  attempts: number;
}

/** One `npm start` process of the group, on its own port and data folder. */
export interface Instance {
  index: number;
  port: number;
  folder: string;
  process: ServerProcess | null;
  /** Its connections' `application_name` in pg_stat_activity. */
  applicationName: string | null;
}

/**
 * Several real servers (`npm start` processes) on one PostgreSQL schema and one S3-compatible bucket with the same
 * JWT_SECRET, as a deployment runs them behind a load balancer; `send` is that balancer, and `at(i)` reaches one
 * instance around it. The same settings go to every instance; each has its own data folder and port.
 */
export class InstanceGroup {
  readonly instances: Instance[];
  private readonly ready = new Set<number>();
  private readonly checks: NodeJS.Timeout;
  /** A round of readiness checks is running: the next waits for it rather than piling up behind a slow answer. */
  private checking = false;
  private turn = 0;

  private constructor(
    readonly schema: string,
    private readonly env: Record<string, string>,
    ports: number[],
  ) {
    this.instances = ports.map((port, index) => ({
      index,
      port,
      folder: mkdtempSync(join(tmpdir(), `instance-${index}-`)),
      process: null,
      applicationName: null,
    }));
    this.checks = setInterval(() => void this.checkReadiness(), READINESS_CHECK_MS);
  }

  /** `count` servers started at the same moment; resolves once every one serves. */
  static async start(
    count: number,
    { bucket, env = {} }: { bucket: S3Config; env?: Record<string, string> },
  ): Promise<InstanceGroup> {
    const schema = `instances_${randomBytes(6).toString('hex')}`;
    const settings = {
      DATABASE_URL: TEST_DATABASE_URL,
      DATABASE_SCHEMA: schema,
      DATABASE_POOL_SIZE: '4',
      JWT_SECRET: randomBytes(32).toString('hex'),
      S3_BUCKET: bucket.bucket,
      S3_REGION: bucket.region,
      S3_ENDPOINT: bucket.endpoint ?? '',
      S3_ACCESS_KEY_ID: bucket.accessKeyId ?? '',
      S3_SECRET_ACCESS_KEY: bucket.secretAccessKey ?? '',
      S3_FORCE_PATH_STYLE: String(bucket.forcePathStyle),
      ...env,
    };
    const group = new InstanceGroup(
      schema,
      settings,
      await Promise.all(Array.from({ length: count }, () => freePort())),
    );
    await Promise.all(group.instances.map((instance) => group.launch(instance.index)));
    return group;
  }

  /** Starts instance `index` (again) and resolves once it serves and the balancer has seen it ready. */
  async launch(index: number, env: Record<string, string> = {}): Promise<ServerProcess> {
    const instance = this.instances[index]!;
    const server = startServerProcess(instance.folder, instance.port, { ...this.env, ...env });
    instance.process = server;
    instance.applicationName = applicationName(server.pid);
    await server.printed(SERVER_READY, 300_000);
    await until(() => this.ready.has(index), `instance ${index} ready`);
    return server;
  }

  /** kill -9: the process ends at once, with whatever it was doing. */
  async kill(index: number): Promise<void> {
    const server = this.instances[index]!.process;
    if (!server) return;
    server.child.kill('SIGKILL');
    await server.exited;
    this.ready.delete(index);
  }

  /** SIGTERM, as an orchestrator stops an instance; resolves with its exit code. */
  async stop(index: number): Promise<number | null> {
    const server = this.instances[index]!.process;
    if (!server) return null;
    server.child.kill('SIGTERM');
    return server.exited;
  }

  /** The balancer: the next ready instance in turn; a refused connection (nothing was sent) goes to the next one. */
  async send<T = Record<string, unknown>>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<Answer<T> & { instance: number }> {
    for (let tries = 0; ; tries += 1) {
      const ready = [...this.ready].sort();
      if (ready.length === 0) {
        // As a balancer holds a request while its instances come back, rather than failing it.
        await until(() => this.ready.size > 0, 'an instance ready');
        continue;
      }
      const instance = ready[this.turn++ % ready.length]!;
      try {
        return { ...(await this.at<T>(instance, method, path, options)), instance };
      } catch (error) {
        if (!(error instanceof NoAnswer) || error.code !== 'ECONNREFUSED' || tries >= 10) throw error;
        this.ready.delete(instance);
      }
    }
  }

  /** One instance, around the balancer. `path` is under /api/v1 unless it starts with a slash. */
  at<T = Record<string, unknown>>(
    index: number,
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<Answer<T>> {
    return requestInstance<T>(index, this.instances[index]!.port, method, path, options);
  }

  /** Signs in through the balancer; the access and refresh tokens. */
  async signIn(email: string, password: string): Promise<{ access: string; refresh: string }> {
    const answer = await this.send<{ data: { access: string; refresh: string } }>('POST', 'login', {
      body: { email, password },
    });
    if (answer.status !== 200) throw new Error(`sign-in of ${email}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.data;
  }

  /**
   * A trade-data file uploaded as the console does it: announced on one instance, sent in chunks (tus) to the bucket
   * through the same one, completed on another. The upload's id once completion accepted it.
   */
  async upload(
    token: string,
    csv: string,
    { announceAt, completeAt, period = nextPeriod() }: { announceAt: number; completeAt: number; period?: string },
  ): Promise<number> {
    const [country] = await this.sql<{ id: number }>('SELECT id::int AS id FROM countries ORDER BY id LIMIT 1');
    const fileName = `shipments-${randomBytes(4).toString('hex')}.csv`;
    const announced = await this.at<{ data: { upload: { id: number }; upload_url: string; complete_path: string } }>(
      announceAt,
      'POST',
      'uploads',
      {
        token,
        body: {
          country_id: country!.id,
          trade_direction: 'export',
          period,
          file_name: fileName,
          size: Buffer.byteLength(csv),
        },
      },
    );
    if (announced.status !== 201)
      throw new Error(`announcing an upload: ${announced.status} ${JSON.stringify(announced.body)}`);
    const { upload, upload_url: url, complete_path: completePath } = announced.body.data;
    await sendFileOverHttp(`http://127.0.0.1:${this.instances[announceAt]!.port}`, url, csv);
    const completed = await this.at(completeAt, 'POST', completePath, { token, body: {} });
    if (completed.status !== 200)
      throw new Error(`completing upload ${upload.id}: ${completed.status} ${JSON.stringify(completed.body)}`);
    return upload.id;
  }

  /** Every import publishes at once, as an administrator may set it (these tests are about instances, not review). */
  async publishEveryImport(): Promise<void> {
    const db = await openPostgres(TEST_DATABASE_URL, this.schema, 1);
    try {
      await publishEveryImport(db);
    } finally {
      await db.close();
    }
  }

  /**
   * A period whose month partition exists already: an upload of it is not held up creating the month (which an
   * importer does before it claims the upload), only inside its claim.
   */
  async monthMade(): Promise<string> {
    const period = nextPeriod();
    const db = await openPostgres(TEST_DATABASE_URL, this.schema, 1);
    try {
      await ensureMonth(db, period);
    } finally {
      await db.close();
    }
    return period;
  }

  /** An upload's state and how many trade records, rejections and notifications it left, read in the database. */
  async uploadOutcome(uploadId: number): Promise<UploadOutcome> {
    const [row] = await this.sql<UploadOutcome>(
      `SELECT u.status, (SELECT count(*)::int FROM trade_records WHERE upload_id = $1) AS records, f.processed_at IS NOT NULL AS processed, f.error,
              (SELECT count(*)::int FROM notifications WHERE message LIKE '%<b>' || u.file_name || '</b>%') AS notifications,
              f.import_attempts AS attempts
         FROM data_uploads u JOIN upload_files f ON f.upload_id = u.id WHERE u.id = $1`,
      [uploadId],
    );
    if (!row) throw new Error(`no upload ${uploadId}`);
    return row;
  }

  /** A connection of the test's own to the group's database (to look, or to hold a lock while instances wait). */
  async connect(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: TEST_DATABASE_URL,
      options: `-c search_path=${quoteIdentifier(this.schema)},public`,
    });
    await client.connect();
    return client;
  }

  async sql<T extends pg.QueryResultRow = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    const client = await this.connect();
    try {
      return (await client.query<T>(text, params)).rows;
    } finally {
      await client.end();
    }
  }

  /**
   * Takes a lock on a connection of the test's own, in a transaction left open (`lock` is the statement that takes
   * it), so that instances needing it wait, in the middle of their work, until `release`.
   */
  holdLock(lock: string, params: unknown[] = []): Promise<HeldLock> {
    const instanceOf = (name: string) => this.instances.findIndex((instance) => instance.applicationName === name);
    return holdLock(this, instanceOf, lock, params);
  }

  async close(): Promise<void> {
    clearInterval(this.checks);
    await Promise.all(this.instances.map((instance) => (instance.process ? stopProcess(instance.process) : undefined)));
    for (const instance of this.instances) rmSync(instance.folder, { recursive: true, force: true });
    await this.sql(`DROP SCHEMA IF EXISTS ${quoteIdentifier(this.schema)} CASCADE`);
  }

  private async checkReadiness(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    await Promise.all(
      this.instances.map(async (instance) => {
        const live =
          instance.process && instance.process.child.exitCode === null && instance.process.child.signalCode === null;
        const ready =
          live &&
          (await fetch(`http://127.0.0.1:${instance.port}/readyz`, {
            signal: AbortSignal.timeout(READINESS_TIMEOUT_MS),
          }).then(
            async (response) => (await response.arrayBuffer()) && response.status === 200,
            () => false,
          ));
        if (ready) this.ready.add(instance.index);
        else this.ready.delete(instance.index);
      }),
    ).finally(() => (this.checking = false));
  }
}
