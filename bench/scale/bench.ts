/**
 * Scaling out: the same reads through one instance and through two instances of `npm start` on one PostgreSQL, in one
 * run, as a ratio of requests per second (two / one), printed with the machine's core count and held to the
 * expectation below. Both instances run the whole time; the one-instance lines load the first alone.
 *
 * The reads are the API benchmark's (bench/api): a list page with search and sort, and a subscriber by id, on
 * BENCH_SUBSCRIBERS subscribers (20,000), with autocannon at 32 connections in all (16 per instance for two).
 * One and two instances take turns, BENCH_ROUNDS (3) times BENCH_SECONDS (5) each after BENCH_WARMUP_SECONDS (3) of
 * unmeasured load, and the medians are compared, so that whatever else loads the machine meanwhile weighs on both.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { PasswordHasher } from '../../server/modules/auth/passwords.ts';
import { DEFAULT_PASSWORD_HASHING } from '../../server/config.ts';
import { migrate } from '../../server/db/migrate.ts';
import { openPostgres, quoteIdentifier } from '../../server/db/postgres.ts';
import { seedRolesAndUsers } from '../../server/seed/roles.ts';
import {
  freePort,
  SERVER_READY,
  startServerProcess,
  stopProcess,
  type ServerProcess,
} from '../../server/testing/serverProcess.ts';
import { seedBenchData } from '../api/seed.ts';
import { POSTGRES_URL } from '../support/load.ts';
import { signIn } from '../support/serverProcess.ts';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 20_000);
const CONNECTIONS = 32;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
/** Per instance: 8 connections keep a PostgreSQL on few cores busy without its backends fighting (bench/api). */
const POOL_SIZE = '8';
const CORES = availableParallelism();

/**
 * The expectation. A cached read costs the server's JavaScript far more than PostgreSQL's session check, and one
 * instance runs its JavaScript on one core; a second instance doubles that only where a core is free for it beside
 * PostgreSQL and the load generator. So on 2 cores, where one instance already shares the machine with them, two
 * instances can only match it (the second takes nothing away: 0.85 allows for the noise of a shared machine); with 3
 * cores a second instance gains part of a core; with 4 or more, it nearly doubles the reads (1.5).
 */
function expectedRatio(cores: number): number {
  if (cores <= 2) return 0.85;
  if (cores === 3) return 1.1;
  return 1.5;
}

interface Figures {
  rps: number;
  p99: number;
  errors: number;
}

async function main(): Promise<void> {
  const schema = `bench_scale_${randomBytes(4).toString('hex')}`;
  const db = await openPostgres(POSTGRES_URL, schema, 4).catch((error: unknown) => {
    throw new Error(
      `PostgreSQL at ${POSTGRES_URL} is unreachable (${error instanceof Error ? error.message : String(error)}): nothing measured.`,
    );
  });
  const folders: string[] = [];
  const servers: ServerProcess[] = [];
  try {
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
    await migrate(db);
    await seedRolesAndUsers(db, new PasswordHasher(DEFAULT_PASSWORD_HASHING));
    const data = await db.transaction((tx) => seedBenchData(tx, SUBSCRIBERS));
    await db.exec('VACUUM ANALYZE');

    const env = {
      DATABASE_URL: POSTGRES_URL,
      DATABASE_SCHEMA: schema,
      DATABASE_POOL_SIZE: POOL_SIZE,
      JWT_SECRET: randomBytes(32).toString('hex'),
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
    };
    const ports = [await freePort(), await freePort()];
    for (const port of ports) {
      const folder = mkdtempSync(join(tmpdir(), 'bench-scale-'));
      folders.push(folder);
      servers.push(startServerProcess(folder, port, env));
    }
    await Promise.all(servers.map((server) => server.printed(SERVER_READY, 300_000)));
    const bases = ports.map((port) => `http://127.0.0.1:${port}/api/v1`);
    const headers = await signIn(bases[0]!);

    console.info(
      `cores: ${CORES} (load average ${loadavg()[0]!.toFixed(1)} before the run); ${SUBSCRIBERS} subscribers on PostgreSQL; autocannon, ${CONNECTIONS} connections in all; ` +
        `${ROUNDS} rounds of ${DURATION_SECONDS} s per configuration after ${WARMUP_SECONDS} s of warm-up`,
    );
    const scenarios = [
      {
        name: `list q="${data.search}" sort=name`,
        path: `/subscribers?q=${encodeURIComponent(data.search)}&_sort=name&_order=asc&_page_size=20`,
      },
      { name: 'get subscriber by id', path: `/subscribers/${data.subscriberId}` },
    ];
    const expected = expectedRatio(CORES);
    const lines: Array<{ name: string; one: Figures; two: Figures; ratio: number }> = [];
    for (const scenario of scenarios) {
      await Promise.all([
        load([bases[0]!], scenario.path, headers, WARMUP_SECONDS),
        load(bases, scenario.path, headers, WARMUP_SECONDS),
      ]);
      const rounds: Array<{ one: Figures; two: Figures }> = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        rounds.push({
          one: await load([bases[0]!], scenario.path, headers, DURATION_SECONDS),
          two: await load(bases, scenario.path, headers, DURATION_SECONDS),
        });
      }
      const one = median(rounds.map((round) => round.one));
      const two = median(rounds.map((round) => round.two));
      const ratio = two.rps / one.rps;
      console.info(
        `${scenario.name}: one instance ${one.rps.toFixed(0)} req/s (p99 ${one.p99} ms), two ${two.rps.toFixed(0)} req/s (p99 ${two.p99} ms): ${ratio.toFixed(2)}x`,
      );
      lines.push({ name: scenario.name, one, two, ratio });
    }

    console.info(`\ncores ${CORES}: expected two/one >= ${expected} (see expectedRatio in bench/scale/bench.ts)`);
    console.info('scenario                                 one req/s  two req/s  two/one  errors  verdict');
    let failed = false;
    for (const line of lines) {
      const pass = line.ratio >= expected && line.one.errors + line.two.errors === 0;
      failed ||= !pass;
      console.info(
        `${line.name.padEnd(40)} ${line.one.rps.toFixed(0).padStart(9)} ${line.two.rps.toFixed(0).padStart(10)} ${line.ratio.toFixed(2).padStart(8)} ${String(line.one.errors + line.two.errors).padStart(7)}  ${pass ? 'PASS' : 'FAIL'}`,
      );
    }
    process.exitCode = failed ? 1 : 0;
  } finally {
    await Promise.all(servers.map(stopProcess));
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    await db.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`);
    await db.close();
  }
}

/** The load spread evenly over `bases`: one autocannon per instance, the connections shared between them. */
async function load(
  bases: readonly string[],
  path: string,
  headers: Record<string, string>,
  seconds: number,
): Promise<Figures> {
  const results = await Promise.all(
    bases.map((base) =>
      autocannon({ url: `${base}${path}`, headers, connections: CONNECTIONS / bases.length, duration: seconds }),
    ),
  );
  return {
    rps: results.reduce((sum, result) => sum + result.requests.average, 0),
    p99: Math.max(...results.map((result) => result.latency.p99)),
    errors: results.reduce((sum, result) => sum + result.errors + result.timeouts + result.non2xx, 0),
  };
}

/** The round with the median request rate (its latency and errors with it); errors of every round are summed. */
function median(rounds: readonly Figures[]): Figures {
  const sorted = [...rounds].sort((a, b) => a.rps - b.rps);
  return { ...sorted[Math.floor(sorted.length / 2)]!, errors: rounds.reduce((sum, round) => sum + round.errors, 0) };
}

await main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
