// The trade-report bench's timings: each scenario's p50 and p95 over BENCH_SAMPLES requests, and the results table.
import type { DatabaseKind } from '../support/serverProcess.ts';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);

interface Line {
  database: DatabaseKind;
  scenario: string;
  p50: number;
  p95: number;
  budgetMs: number | null;
  note: string;
}

const lines: Line[] = [];
const p = (values: number[], fraction: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * fraction))]!;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** Runs each request of `requests` once for warm-up, then `SAMPLES` times round-robin; records p50/p95. */
export async function measure(
  database: DatabaseKind,
  scenario: string,
  budgetMs: number | null,
  requests: Array<() => Promise<string>>,
): Promise<void> {
  let note = '';
  for (const request of requests) note = await request();
  const times: number[] = [];
  for (let index = 0; index < SAMPLES; index += 1)
    times.push(await timed(async () => (note = await requests[index % requests.length]!())));
  const line = { database, scenario, p50: p(times, 0.5), p95: p(times, 0.95), budgetMs, note };
  lines.push(line);
  console.info(`${database} ${scenario}: p50 ${line.p50.toFixed(1)} ms, p95 ${line.p95.toFixed(1)} ms ${note}`);
}

/** Prints every line measured with its verdict; answers whether every budget held. */
export function printResults(): boolean {
  const width = Math.max(...lines.map((line) => line.scenario.length));
  console.info(`\n${'database'.padEnd(9)} ${'scenario'.padEnd(width)}   p50 ms   p95 ms  budget (p95)  verdict`);
  let passed = true;
  for (const line of lines) {
    const pass = line.budgetMs === null || line.p95 < line.budgetMs;
    passed &&= pass;
    const budget = line.budgetMs === null ? 'information' : `< ${line.budgetMs} ms`;
    console.info(
      `${line.database.padEnd(9)} ${line.scenario.padEnd(width)} ${line.p50.toFixed(1).padStart(8)} ${line.p95.toFixed(1).padStart(8)}  ${budget.padEnd(12)}  ${line.budgetMs === null ? '-' : pass ? 'PASS' : 'FAIL'}`,
    );
  }
  return passed;
}
