/**
 * npm run bench:trade-import: a country's month of shipments (BENCH_ROWS, default 1,000,000 rows, ~164 MB) as an upload's
 * stored file, imported by the real server in its own process, from the file's arrival to the upload published; in
 * the same run a bare COPY of the same file into an unlogged table, the yardstick. While the import runs, the uploads
 * list is requested one request after another and its latencies kept.
 * Budgets: on PostgreSQL at most 10x the bare COPY, and the list's p99 under 100 ms; on PGlite (in a data folder, as
 * `npm start` keeps it) under 90 s. With BENCH_BIG=1, also 5,000,000 rows (~820 MB), gzip and plain, each with the
 * server's peak RSS under 600 MB.
 * The comparison with the month before (docs/api.md, "Review before publishing"): the server first imports the month
 * before (PREVIOUS_PERIOD, the same number of rows), then the measured month, whose comparison with it runs inside its
 * import; on PostgreSQL it must add at most 3 s.
 * BENCH_DATABASES=postgres or =pglite runs one database only.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { shipmentLines } from '../../server/modules/uploads/testing/tradeCsv.ts';
import { postgresReachable } from '../support/load.ts';
import { signIn, withServerProcess, type DatabaseKind } from '../support/serverProcess.ts';
import type { Arrived, Published } from './server.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const BIG_ROWS = 5_000_000;
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_trade';
const PERIOD = '2026-09';
const PREVIOUS_PERIOD = '2026-08';
const COMPARISON_BUDGET_S = 3;
const COPY_FACTOR_BUDGET = 10;
const PGLITE_BUDGET_S = 90;
const LIST_P99_BUDGET_MS = 100;
const PEAK_RSS_BUDGET_MB = 600;
let failed = false;

const verdict = (ok: boolean) => {
  if (!ok) failed = true;
  return ok ? 'PASS' : 'FAIL';
};

async function writeFile(
  path: string,
  rows: number,
  gzip: boolean,
  period = PERIOD,
): Promise<{ size: number; sha256: string }> {
  const lines = Readable.from(shipmentLines(rows, period));
  if (gzip) await pipeline(lines, createGzip({ level: 6 }), createWriteStream(path));
  else await pipeline(lines, createWriteStream(path));
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return { size: (await stat(path)).size, sha256: hash.digest('hex') };
}

/** The yardstick: the same file into an unlogged table of the same columns, by COPY and nothing else. */
async function bareCopy(path: string): Promise<number> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`DROP TABLE IF EXISTS bare_copy; CREATE UNLOGGED TABLE bare_copy (shipment_date date, hs_code text, product_description text, quantity float8, unit text,
      value float8, importer text, exporter text, origin_country text, destination_country text, port_of_loading text, port_of_discharge text)`);
    const started = performance.now();
    await pipeline(createReadStream(path), client.query(copyFrom('COPY bare_copy FROM STDIN (FORMAT csv, HEADER)')));
    const seconds = (performance.now() - started) / 1000;
    await client.query('DROP TABLE bare_copy');
    return seconds;
  } finally {
    await client.end();
  }
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

interface MonthFile {
  path: string;
  file: { size: number; sha256: string };
  period: string;
}

/**
 * The file imported by a server of its own on `kind`, after `before` (the month before, imported first and not
 * measured, so that the file's import is compared with it); the uploads list's latencies while it runs.
 */
async function importThrough(
  kind: DatabaseKind,
  folder: string,
  path: string,
  file: { size: number; sha256: string },
  measureList: boolean,
  before: MonthFile | null = null,
) {
  const storage = await mkdtemp(join(folder, 'storage-'));
  return withServerProcess<{ base: string }, Published & { listMs: number[]; slowAt: string[] }>(
    new URL('./server.ts', import.meta.url),
    { name: kind, env: { BENCH_DATABASE: kind, BENCH_STORAGE: storage, BENCH_POSTGRES_URL: POSTGRES_URL } },
    async ({ base }, _pid, child) => {
      const headers = { ...(await signIn(base)), 'content-type': 'application/json' };
      const post = async (path: string, body: object) =>
        (await (await fetch(`${base}/${path}`, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as {
          data: Record<string, unknown>;
        };
      const country = await post('countries', {
        name: 'Norway',
        iso2: 'NO',
        iso3: 'NOR',
        region: 'europe',
        currency_code: 'NOK',
      });
      await mkdir(join(storage, 'uploads'), { recursive: true });
      const arrive = async (month: MonthFile): Promise<Published> => {
        const ticket = await post('uploads', {
          country_id: country.data.id,
          trade_direction: 'export',
          period: month.period,
          file_name: `shipments-${month.period}.csv`,
          size: month.file.size,
        });
        const uploadId = (ticket.data.upload as { id: number }).id;
        const key = `uploads/${uploadId}-0000000000bench0.csv`;
        await link(month.path, join(storage, key));
        const ended = new Promise<Published>((resolve) => {
          const listener = (message: Published | object) => {
            if (!('type' in message) || message.type !== 'published') return;
            child.off('message', listener);
            resolve(message);
          };
          child.on('message', listener);
        });
        child.send({
          type: 'arrived',
          uploadId,
          key,
          size: month.file.size,
          sha256: month.file.sha256,
        } satisfies Arrived);
        return ended;
      };
      if (before) await arrive(before);
      const published = arrive({ path, file, period: PERIOD });
      const listMs: number[] = [];
      const slowAt: string[] = [];
      const importStarted = performance.now();
      let done = false;
      void published.then(() => (done = true));
      while (measureList && !done) {
        const started = performance.now();
        await fetch(`${base}/uploads?_page=1&_page_size=20`, { headers });
        const took = performance.now() - started;
        listMs.push(took);
        if (took >= LIST_P99_BUDGET_MS)
          slowAt.push(`${Math.round(took)} ms at ${((started - importStarted) / 1000).toFixed(1)} s`);
      }
      return { ...(await published), listMs, slowAt };
    },
  );
}

const seconds = (value: number) => `${value.toFixed(1)} s`;
const folder = await mkdtemp(join(tmpdir(), 'trade-import-'));
const load = () =>
  `load ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}`;
try {
  const path = join(folder, 'shipments.csv');
  const file = await writeFile(path, ROWS, false);
  const previousPath = join(folder, 'previous.csv');
  const previous: MonthFile = {
    path: previousPath,
    file: await writeFile(previousPath, ROWS, false, PREVIOUS_PERIOD),
    period: PREVIOUS_PERIOD,
  };
  console.log(
    `file: ${ROWS.toLocaleString('en')} rows, ${(file.size / 1024 ** 2).toFixed(0)} MB, and the month before it alike (${load()})`,
  );
  const comparison = (database: string, run: Published) =>
    console.log(
      `${database} comparison with the month before, inside the import: ${run.comparisonMs === null ? 'none stored' : seconds(run.comparisonMs / 1000)} (budget ${COMPARISON_BUDGET_S} s) ` +
        `${verdict(run.comparisonMs !== null && run.comparisonMs / 1000 <= COMPARISON_BUDGET_S)}`,
    );
  if (process.env.BENCH_DATABASES === 'pglite') console.log('postgres: not asked for (BENCH_DATABASES=pglite)');
  else if (await postgresReachable(POSTGRES_URL)) {
    const copy = await bareCopy(path);
    const run = await importThrough('postgres', folder, path, file, true, previous);
    const factor = run.seconds / copy;
    const p99 = percentile(run.listMs, 0.99);
    console.log(`postgres bare COPY into an unlogged table: ${seconds(copy)}`);
    console.log(
      `postgres import, file stored to upload published: ${seconds(run.seconds)} = ${factor.toFixed(1)}x the bare COPY (budget ${COPY_FACTOR_BUDGET}x) ${verdict(run.status === 'published' && run.rows === ROWS && factor <= COPY_FACTOR_BUDGET)} ` +
        `[${run.status}, ${run.rows.toLocaleString('en')} rows, server peak RSS ${run.peakRssMb} MB] (${load()})`,
    );
    console.log(
      `postgres uploads list during the import: ${run.listMs.length} requests, p50 ${percentile(run.listMs, 0.5).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms (budget ${LIST_P99_BUDGET_MS} ms) ${verdict(p99 < LIST_P99_BUDGET_MS)}`,
    );
    console.log(
      `  the server's event loop meanwhile: delay p99 ${run.loopDelayMs.p99} ms, max ${run.loopDelayMs.max} ms; lists over the budget: ${run.slowAt.slice(0, 12).join(', ') || 'none'}`,
    );
    comparison('postgres', run);
  } else {
    console.log(`postgres SKIPPED: ${POSTGRES_URL} is unreachable`);
  }
  if (process.env.BENCH_DATABASES !== 'postgres') {
    const run = await importThrough('pglite', folder, path, file, false, previous);
    console.log(
      `pglite   import, file stored to upload published: ${seconds(run.seconds)} (budget ${PGLITE_BUDGET_S} s) ${verdict(run.status === 'published' && run.rows === ROWS && run.seconds < PGLITE_BUDGET_S)} ` +
        `[${run.status}, ${run.rows.toLocaleString('en')} rows, server peak RSS ${run.peakRssMb} MB; readers got their answer after ${seconds(run.answeredSeconds)}, the search index built] (${load()})`,
    );
    console.log(
      `pglite   comparison with the month before, inside the import: ${run.comparisonMs === null ? 'none stored' : seconds(run.comparisonMs / 1000)} (no budget on PGlite)`,
    );
  }
  if (process.env.BENCH_BIG === '1' && (await postgresReachable(POSTGRES_URL))) {
    await rm(path);
    await rm(previousPath);
    for (const gzip of [true, false]) {
      const big = join(folder, gzip ? 'big.csv.gz' : 'big.csv');
      const bigFile = await writeFile(big, BIG_ROWS, gzip);
      const run = await importThrough('postgres', folder, big, bigFile, false);
      console.log(
        `postgres ${BIG_ROWS.toLocaleString('en')} rows ${gzip ? 'gzip' : 'plain'} (${(bigFile.size / 1024 ** 2).toFixed(0)} MB): ${seconds(run.seconds)}, server peak RSS ${run.peakRssMb} MB (budget ${PEAK_RSS_BUDGET_MB} MB) ` +
          `${verdict(run.status === 'published' && run.rows === BIG_ROWS && run.peakRssMb < PEAK_RSS_BUDGET_MB)} [${run.status}${run.error ? `: ${run.error}` : ''}] (${load()})`,
      );
      await rm(big);
    }
  }
} finally {
  await rm(folder, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
