/**
 * The home screen's answer, GET home, for each demo role on 100,000 subscribers on PostgreSQL (server.ts seeds them
 * as the home screen meets them). Several people sign in at once: CONNECTIONS requests in flight, each connection
 * asking again as soon as it is answered, for DURATION seconds after a warm-up; p50, p95 and p99 per role, the p95
 * held to the budget. BENCH_SUBSCRIBERS and BENCH_SECONDS shorten runs.
 */
import { DEMO_USERS } from '../../server/seed/roles.ts';
import { POSTGRES_URL, postgresReachable } from '../support/load.ts';
import { withServerProcess } from '../support/serverProcess.ts';
import type { HomeServerReady } from './server.ts';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 100_000);
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = 3;
/** People landing at the same moment: more than sign in together at the start of a working day. */
const CONNECTIONS = 4;
/** The budget: the home screen's queries answer within 50 ms at the 95th percentile. */
const P95_BUDGET_MS = 50;

interface RoleFigures {
  role: string;
  requests: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
}

async function signIn(base: string, email: string, password: string): Promise<Record<string, string>> {
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!login.ok) throw new Error(`${email} could not sign in: ${login.status}`);
  const { data } = (await login.json()) as { data: { access: string } };
  return { authorization: `Bearer ${data.access}` };
}

/** Every request's milliseconds, `connections` at a time, for `seconds`; errors are non-200 answers. */
async function closedLoop(
  url: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
): Promise<{ latencies: number[]; errors: number }> {
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        latencies.push(performance.now() - started);
        if (response.status !== 200) errors += 1;
      }
    }),
  );
  return { latencies, errors };
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

/**
 * The first answer after a change, one request at a time: the subscriber figures are kept until the data changes, so
 * this is what the sign-in after each change waits for (a country's status is toggled before each request).
 */
async function afterEachChange(base: string, headers: Record<string, string>, requests: number): Promise<number[]> {
  const countries = (await (await fetch(`${base}/countries?_page_size=1`, { headers })).json()) as {
    data: Array<{ id: number }>;
  };
  const country = countries.data[0]!.id;
  const latencies: number[] = [];
  for (let index = 0; index < requests; index += 1) {
    const changed = await fetch(`${base}/countries/${country}/status`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json', 'if-match': '*' },
      body: JSON.stringify({ is_active: index % 2 === 1 }),
    });
    if (!changed.ok) throw new Error(`the change before request ${index} answered ${changed.status}`);
    const started = performance.now();
    await (await fetch(`${base}/home`, { headers })).arrayBuffer();
    latencies.push(performance.now() - started);
  }
  return latencies.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  if (!(await postgresReachable(POSTGRES_URL))) {
    console.warn(`PostgreSQL at ${POSTGRES_URL} is unreachable: bench:home needs it. SKIPPED.`);
    return;
  }
  const env = { BENCH_SUBSCRIBERS: String(SUBSCRIBERS), BENCH_POSTGRES_URL: POSTGRES_URL };
  let firstAfterChange = { p50: Number.NaN, p95: Number.NaN };
  const results = await withServerProcess<HomeServerReady, RoleFigures[]>(
    new URL('./server.ts', import.meta.url),
    { name: 'home', env },
    async (ready, pid) => {
      const { seeded } = ready;
      console.info(
        `postgres: seeded ${seeded.subscribers} subscribers, ${seeded.payments} payments, ${seeded.uploads} uploads, ${seeded.auditEntries} audit entries in ${ready.seedSeconds.toFixed(1)} s; server pid ${pid}`,
      );
      const figures: RoleFigures[] = [];
      for (const user of DEMO_USERS) {
        const headers = await signIn(ready.base, user.email, user.password);
        const url = `${ready.base}/home`;
        const cards = ((await (await fetch(url, { headers })).json()) as { data: { cards: Array<{ key: string }> } })
          .data.cards;
        console.info(`${user.role}: ${cards.map((card) => card.key).join(', ')}`);
        await closedLoop(url, headers, CONNECTIONS, WARMUP_SECONDS);
        const { latencies, errors } = await closedLoop(url, headers, CONNECTIONS, DURATION_SECONDS);
        const sorted = latencies.sort((a, b) => a - b);
        figures.push({
          role: user.role,
          requests: sorted.length,
          errors,
          p50: percentile(sorted, 0.5),
          p95: percentile(sorted, 0.95),
          p99: percentile(sorted, 0.99),
        });
      }
      const admin = await signIn(ready.base, DEMO_USERS[0]!.email, DEMO_USERS[0]!.password);
      const changed = await afterEachChange(ready.base, admin, 40);
      firstAfterChange = { p50: percentile(changed, 0.5), p95: percentile(changed, 0.95) };
      return figures;
    },
  );
  console.info(
    `\nGET home on PostgreSQL, ${SUBSCRIBERS.toLocaleString('en')} subscribers, ${CONNECTIONS} connections, ${DURATION_SECONDS} s per role:`,
  );
  console.info(
    `${'role'.padEnd(16)} ${'requests'.padStart(8)}  ${'p50 ms'.padStart(7)}  ${'p95 ms'.padStart(7)}  ${'p99 ms'.padStart(7)}  errors  budget          verdict`,
  );
  let failed = false;
  for (const line of results) {
    const pass = line.errors === 0 && line.p95 < P95_BUDGET_MS;
    failed ||= !pass;
    console.info(
      `${line.role.padEnd(16)} ${String(line.requests).padStart(8)}  ${line.p50.toFixed(1).padStart(7)}  ${line.p95.toFixed(1).padStart(7)}  ${line.p99.toFixed(1).padStart(7)}  ${String(line.errors).padStart(6)}  p95 < ${P95_BUDGET_MS} ms    ${pass ? 'PASS' : 'FAIL'}`,
    );
  }
  console.info(
    `${DEMO_USERS[0]!.role}, the first answer after each change (1 connection, information): p50 ${firstAfterChange.p50.toFixed(1)} ms, p95 ${firstAfterChange.p95.toFixed(1)} ms`,
  );
  process.exitCode = failed ? 1 : 0;
}

await main();
