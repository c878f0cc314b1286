/**
 * Audit benchmark, on PostgreSQL, through the real HTTP routes (autocannon; the server runs in a child process,
 * server.ts, so the load generator never shares its event loop):
 * - the audit screen's page (GET audit-log, 25 entries, newest first, with its total) on 1,000,000 entries, for each
 *   filter alone and combined: p99 under 50 ms per query shape;
 * - the write path with history on and off: PUT throughput on a resource whose `history` is true, against the same
 *   resource with it false; the ratio off/on at most 1.3.
 * BENCH_ENTRIES, BENCH_SECONDS and BENCH_CONNECTIONS shorten or change runs; BENCH_PARTS=entries or writes runs one part.
 *
 * What one page costs PostgreSQL on 1,000,000 entries (EXPLAIN ANALYZE): the page of 25 is an index scan of the
 * filter's index in its order (0.1-0.3 ms); the planner's estimate is planning only; the bounded count is an index-only
 * scan of at most 10,001 index entries (1.5-2.3 ms), skipped when the estimate is far past the bound. Counted without
 * the page's order the planner chose a bitmap heap scan instead (120-135 ms). The server, PostgreSQL and autocannon
 * share the machine's cores, so anything else running shows directly in the tail.
 */
import autocannon from 'autocannon';
import type { AuditServerReady } from './server.ts';
import { POSTGRES_URL, postgresReachable } from '../support/load.ts';
import { signIn, withServerProcess } from '../support/serverProcess.ts';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
/** An audit screen is read by a few people at once, not fifty: 10 connections. */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PARTS = (process.env.BENCH_PARTS ?? 'entries,writes').split(',');

/** The audit screen's page on 1,000,000 entries, each shape: PostgreSQL's part of it is an index scan of 25 rows plus a count bounded at 10,001. */
const PAGE_P99_MS = 50;
/** History costs at most 30% of the write path's throughput. */
const HISTORY_RATIO_BUDGET = 1.3;

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function main(): Promise<void> {
  if (!(await postgresReachable(POSTGRES_URL))) {
    console.warn(`PostgreSQL at ${POSTGRES_URL} is unreachable: the audit benchmark is SKIPPED.`);
    return;
  }
  let failed = false;
  const verdicts: string[] = [];
  if (PARTS.includes('entries')) {
    const lines = await withServer({ BENCH_MODE: 'entries' }, async (ready, headers) => {
      const { userId, module, action, recordId, from, to } = ready.sample;
      console.info(`seeded ${ENTRIES.toLocaleString('en')} entries in ${ready.seedSeconds.toFixed(1)} s`);
      const shapes: Array<[string, string]> = [
        ['no filter (first pages)', ''],
        ['user', `user_id=${userId}`],
        ['module + action', `module=${module}&action=${action}`],
        ['record (module + record_id)', `module=${module}&record_id=${recordId}`],
        ['date range (a week)', `from=${from}&to=${to}`],
        ['user + module + action + dates', `user_id=${userId}&module=${module}&action=${action}&from=${from}&to=${to}`],
      ];
      const measured: Array<[string, Measured]> = [];
      for (const [name, query] of shapes) {
        // The first three pages in turn, as a person pages through them.
        const paths = [1, 2, 3].map(
          (page) => `${new URL(ready.base).pathname}/audit-log?${query}${query ? '&' : ''}page=${page}&pageSize=25`,
        );
        const sample = (await (await fetch(`${new URL(ready.base).origin}${paths[0]}`, { headers })).json()) as {
          meta: { total: number; totalIsEstimate?: boolean };
        };
        console.info(
          `  ${name}: ${sample.meta.total.toLocaleString('en')} entries${sample.meta.totalIsEstimate ? ' (estimated)' : ''}`,
        );
        measured.push([name, await run({ url: ready.base, headers, paths })]);
      }
      return measured;
    });
    console.info(
      `\naudit-log page on ${ENTRIES.toLocaleString('en')} entries, ${CONNECTIONS} connections   req/s   p50 ms   p99 ms  errors  budget        verdict`,
    );
    for (const [name, line] of lines) {
      const pass = line.errors === 0 && line.p99 < PAGE_P99_MS;
      failed ||= !pass;
      console.info(
        `  ${name.padEnd(62)} ${line.rps.toFixed(0).padStart(6)} ${line.p50.toFixed(1).padStart(8)} ${line.p99.toFixed(1).padStart(8)} ${String(line.errors).padStart(7)}  p99 < ${PAGE_P99_MS} ms  ${pass ? 'PASS' : 'FAIL'}`,
      );
    }
  }
  if (PARTS.includes('writes')) {
    const put = async (history: 'on' | 'off') =>
      withServer({ BENCH_MODE: 'writes', BENCH_HISTORY: history }, async (ready, headers) => {
        let next = 0;
        const path = new URL(ready.base).pathname;
        return run({
          url: ready.base,
          method: 'PUT',
          headers: { ...headers, 'content-type': 'application/json', 'if-match': '*' },
          setupRequest: (request) => {
            const feature = ready.features[next++ % ready.features.length]!;
            return {
              ...request,
              path: `${path}/features/${feature.id}`,
              body: JSON.stringify({ code: feature.code, name: `Feature ${next}` }),
            };
          },
        });
      });
    const off = await put('off');
    const on = await put('on');
    const ratio = off.rps / Math.max(on.rps, 1);
    const pass = off.errors === 0 && on.errors === 0 && ratio <= HISTORY_RATIO_BUDGET;
    failed ||= !pass;
    console.info(`\nPUT features/:id, ${CONNECTIONS} connections                 req/s   p50 ms   p99 ms  errors`);
    for (const [name, line] of [
      ['history off', off],
      ['history on', on],
    ] as const) {
      console.info(
        `  ${name.padEnd(45)} ${line.rps.toFixed(0).padStart(6)} ${line.p50.toFixed(1).padStart(8)} ${line.p99.toFixed(1).padStart(8)} ${String(line.errors).padStart(7)}`,
      );
    }
    verdicts.push(
      `history cost: throughput off / on = ${ratio.toFixed(2)}x, budget <= ${HISTORY_RATIO_BUDGET}x: ${pass ? 'PASS' : 'FAIL'}`,
    );
  }
  for (const verdict of verdicts) console.info(verdict);
  process.exitCode = failed ? 1 : 0;
}

async function withServer<T>(
  env: Record<string, string>,
  body: (ready: AuditServerReady, headers: Record<string, string>) => Promise<T>,
): Promise<T> {
  const server = { name: 'audit', env: { ...env, BENCH_ENTRIES: String(ENTRIES), BENCH_POSTGRES_URL: POSTGRES_URL } };
  return withServerProcess<AuditServerReady, T>(new URL('./server.ts', import.meta.url), server, async (ready) =>
    body(ready, await signIn(ready.base)),
  );
}

interface LoadOptions {
  url: string;
  method?: 'GET' | 'PUT';
  headers: Record<string, string>;
  paths?: readonly string[];
  setupRequest?: (request: autocannon.Request) => autocannon.Request;
}

async function run({ paths, setupRequest, ...options }: LoadOptions): Promise<Measured> {
  let next = 0;
  const requests = setupRequest
    ? [{ setupRequest }]
    : paths
      ? [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: paths[next++ % paths.length]! }) }]
      : undefined;
  const once = (duration: number) =>
    autocannon({ connections: CONNECTIONS, duration, ...options, ...(requests ? { requests } : {}) });
  if (WARMUP_SECONDS > 0) await once(WARMUP_SECONDS);
  const result = await once(DURATION_SECONDS);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

await main();
