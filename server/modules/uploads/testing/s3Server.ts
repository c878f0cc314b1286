import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../../../config.ts';

/**
 * A real S3-compatible server for tests: moto's `moto_server` (Debian's python3-moto, or `pip install
 * "moto[server]"`; .ci/run installs it), started on a free port per test file. MOTO_SERVER names another binary.
 */
export const S3_SERVER_COMMAND = process.env.MOTO_SERVER || 'moto_server';

export interface S3TestServer {
  endpoint: string;
  /** A new empty bucket and the settings that reach it. */
  createBucket(): Promise<S3Config>;
  /** A client for looking into buckets behind the server's back. */
  client: S3Client;
  close(): Promise<void>;
}

/** Null when the S3 server can be started, otherwise why not (the tests that need it are then skipped, visibly). */
export function s3ServerUnavailable(): string | null {
  const probe = spawnSync(S3_SERVER_COMMAND, ['--help'], { stdio: 'ignore', timeout: 30_000 });
  if (probe.error)
    return `${S3_SERVER_COMMAND} cannot be run (${probe.error.message}); install python3-moto or moto[server], as .ci/run does`;
  return probe.status === 0 ? null : `${S3_SERVER_COMMAND} --help exited with ${probe.status}`;
}

export async function startS3Server(): Promise<S3TestServer> {
  const child = spawn(S3_SERVER_COMMAND, ['-H', '127.0.0.1', '-p', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const endpoint = await listeningAt(child);
  const credentials = { accessKeyId: 'test-key', secretAccessKey: 'test-secret' };
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
  return {
    endpoint,
    client,
    async createBucket() {
      const bucket = `uploads-${randomBytes(6).toString('hex')}`;
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      return {
        bucket,
        region: 'us-east-1',
        endpoint,
        accessKeyId: credentials.accessKeyId,
        secretAccessKey: credentials.secretAccessKey,
        forcePathStyle: true,
      };
    },
    async close() {
      client.destroy();
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The URL the server prints once it listens ("Running on http://127.0.0.1:<port>"). */
function listeningAt(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    let started = false;
    const fail = (error: Error) => {
      if (started) return;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const timer = setTimeout(
      () => fail(new Error(`${S3_SERVER_COMMAND} did not start within 30 s:\n${output}`)),
      30_000,
    );
    // Read on after it started too (it logs every request), so that a full pipe never blocks it.
    const read = (chunk: Buffer) => {
      if (started) return;
      output += chunk.toString();
      const match = /Running on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        started = true;
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`${S3_SERVER_COMMAND} exited with ${code}:\n${output}`)));
  });
}
