/**
 * The API under benchmark, alone in its own process (its peak RSS is the server's): a fresh database, the app with a
 * data-folder storage, listening on 127.0.0.1. Told over IPC that an upload's file has arrived, it does what the file
 * transfer does (records the file, queues the import) and reports when the upload is published, with its peak RSS and
 * how long its comparison with the month before took.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { PasswordHasher } from '../../server/modules/auth/passwords.ts';
import { buildApp } from '../../server/app.ts';
import { setUploadState } from '../../server/modules/uploads/uploadState.ts';
import { LocalFolderStorage } from '../../server/modules/uploads/storage.ts';
import { seedRolesAndUsers } from '../../server/seed/roles.ts';
import { benchConfig, openBenchDatabase, serveUntilStopped } from '../support/benchServer.ts';

export interface Arrived {
  type: 'arrived';
  uploadId: number;
  key: string;
  size: number;
  sha256: string;
}

export interface Published {
  type: 'published';
  status: string;
  error: string | null;
  rows: number;
  /** From the file's arrival to its records committed and readable. */
  seconds: number;
  /** How long its comparison with the month before took, inside the import (null when it has none stored). */
  comparisonMs: number | null;
  /** To the upload's answer seen by a reader (on PGlite, after the search index that follows publication). */
  answeredSeconds: number;
  peakRssMb: number;
  /** The server's event loop while it imported: how long a callback waited at worst and at the 99th percentile. */
  loopDelayMs: { max: number; p99: number };
}

const kind = process.env.BENCH_DATABASE === 'postgres' ? 'postgres' : 'pglite';
const folder = process.env.BENCH_STORAGE!;
// PGlite in a data folder, as `npm start` keeps it: in memory every record would live in its WebAssembly heap.
const database = await openBenchDatabase(kind, {
  postgresUrl: process.env.BENCH_POSTGRES_URL!,
  schemaPrefix: 'bench_trade',
  poolSize: 8,
  pgliteFolder: `${folder}.pglite`,
});
await seedRolesAndUsers(
  database.db,
  new PasswordHasher({ memoryCost: 1024, timeCost: 1, parallelism: 1, maxConcurrent: 4 }),
);
const config = { ...benchConfig(), uploadMaxBytes: 16 * 1024 ** 3, uploadLeaseSeconds: 600 };
const app = await buildApp({
  config,
  db: database.db,
  storage: new LocalFolderStorage(folder),
  logger: { level: config.logLevel },
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;

/** The most memory this process has held, as the kernel counts it. */
function peakRssMb(): number {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((text) => text.startsWith('VmHWM:'));
  return Math.round(Number(line?.replace(/\D/g, '') ?? 0) / 1024);
}

process.on('message', (message: Arrived | string) => {
  if (typeof message !== 'object' || message.type !== 'arrived') return;
  void (async () => {
    const { db } = database;
    // The file arrives at a server doing nothing else: the search index of the upload before it (the month before,
    // 40 s of one core for 1,000,000 rows, built beside the imports) is finished first, so the import is what is timed.
    await app.uploads.idle();
    await db.query(
      'UPDATE upload_files SET stored_at = now(), storage_key = $2, stored_size = $3, stored_sha256 = $4 WHERE upload_id = $1',
      [message.uploadId, message.key, message.size, message.sha256],
    );
    await setUploadState(app, db, message.uploadId, { status: 'processing' });
    const started = performance.now();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    let publishedAt = 0;
    const unsubscribe = app.uploads.onPublished((id) => {
      if (id === message.uploadId) publishedAt = performance.now();
    });
    app.uploads.enqueue(message.uploadId);
    for (;;) {
      const [row] = await db.query<{
        status: string;
        rows_accepted: number | null;
        error: string | null;
        comparison_ms: number | null;
      }>(
        "SELECT d.status, d.rows_accepted, f.error, (f.review->>'computed_in_ms')::float8 AS comparison_ms FROM data_uploads d JOIN upload_files f ON f.upload_id = d.id WHERE d.id = $1",
        [message.uploadId],
      );
      if (row && row.status !== 'processing') {
        const published: Published = {
          type: 'published',
          status: row.status,
          error: row.error,
          rows: row.rows_accepted ?? 0,
          comparisonMs: row.comparison_ms,
          seconds: ((publishedAt || performance.now()) - started) / 1000,
          answeredSeconds: (performance.now() - started) / 1000,
          peakRssMb: peakRssMb(),
          loopDelayMs: { max: Math.round(loop.max / 1e6), p99: Math.round(loop.percentile(99) / 1e6) },
        };
        loop.disable();
        unsubscribe();
        process.send?.(published);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
});

await serveUntilStopped({ type: 'ready', base: `http://127.0.0.1:${port}/api/v1` }, app, database);
