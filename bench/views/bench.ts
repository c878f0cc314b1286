/**
 * Saved-view benchmark: the subscribers list opened through a saved view of three filters (two statuses, three
 * countries, a plan chosen: `status=trial,active&country_id=a,b,c&plan_id_empty=false`) on 100,000 subscribers,
 * through the real HTTP route at 50 connections; p99 held under 25 ms on PostgreSQL. The server runs in its own
 * process (bench/api/server.ts seeds it); the load generator is autocannon, in this one.
 *
 * Lines: the view's first page as everyone opening it asks for it (what the budget holds); the same view paged and
 * sized differently on every request, so no answer comes from the response cache (the database path itself: the
 * page's rows; the view's total is counted once per data version, as paging through it in the console does); and
 * `GET views/subscribers`, which the list asks for beside its first page. The uncached page and the views answer are
 * held to the budget at PEOPLE_RATE requests a second, as people send them; sent as fast as they are answered (at 50
 * connections, and the pages at one) they are printed for information: the machine's throughput, and what one
 * request costs when it waits behind no other.
 * BENCH_SUBSCRIBERS and BENCH_SECONDS shorten runs; BENCH_DATABASES=postgres,pglite adds PGlite (information only).
 */
import type { ServerReady } from '../api/server.ts';
import { POSTGRES_URL, rotatingLoad, type RotatingLoad } from '../support/load.ts';
import { pacedLoad } from '../support/pacedLoad.ts';
import { linesOnEachDatabase, measureLine, printResults, type Budget, type ResultLine } from '../support/results.ts';
import { signIn, withServerProcess, type DatabaseKind } from '../support/serverProcess.ts';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 100_000);
const CONNECTIONS = 50;
/**
 * Requests a second of the held uncached lines, as people send them: far more than a console's users make (the team
 * looking after 100,000 subscribers is tens of people, not 300 turning a page every second). Sent without pause, every
 * request needs the database and the line measures a queue whose length is the machine's (p50 = connections divided
 * by the throughput): this machine's 2 cores, shared with PostgreSQL and autocannon, answer about 700 such pages a
 * second, and the commit that measured 1,071 in November measured 651 on 3 December, while one page costs 2-3 ms.
 */
const PEOPLE_RATE = 300;
/** The connections people paging at PEOPLE_RATE arrive over. */
const PAGING_CONNECTIONS = 10;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const DATABASES = (process.env.BENCH_DATABASES ?? 'postgres').split(',') as DatabaseKind[];
/** The budget of the view's page on PostgreSQL; PGlite's lines are printed for information. */
const BUDGET: Record<DatabaseKind, Budget | null> = { postgres: { p99Ms: 25 }, pglite: null };
/** The same at PEOPLE_RATE, which must also be kept up with: a server falling behind fails however fast its answers. */
const RATE_BUDGET: Record<DatabaseKind, Budget | null> = {
  postgres: { p99Ms: 25, minRps: Math.floor(PEOPLE_RATE * 0.95) },
  pglite: null,
};

async function main(): Promise<void> {
  console.info(
    `autocannon, ${CONNECTIONS} connections, ${DURATION_SECONDS} s per line after ${WARMUP_SECONDS} s of warm-up, ${SUBSCRIBERS} subscribers`,
  );
  const lines = await linesOnEachDatabase(DATABASES, benchDatabase);
  process.exitCode = printResults(lines) ? 0 : 1;
}

async function benchDatabase(kind: DatabaseKind): Promise<ResultLine[]> {
  const server = {
    name: kind,
    env: { BENCH_DATABASE: kind, BENCH_SUBSCRIBERS: String(SUBSCRIBERS), BENCH_POSTGRES_URL: POSTGRES_URL },
  };
  return withServerProcess<ServerReady, ResultLine[]>(
    new URL('../api/server.ts', import.meta.url),
    server,
    async (ready) => {
      const { base } = ready;
      console.info(`${kind}: seeded ${SUBSCRIBERS} subscribers in ${ready.seedSeconds.toFixed(1)} s`);
      const headers = await signIn(base);
      const query = await savedViewQuery(base, headers);
      const listPath = `${new URL(base).pathname}/subscribers`;
      const page = `${listPath}?${new URLSearchParams({ ...query, _page: '1', _page_size: '20' })}`;
      const [first] = (await (await fetch(`${new URL(base).origin}${page}`, { headers })).json())
        .data as Array<unknown>;
      if (!first) throw new Error(`The saved view matches no subscriber: ${page}`);
      const total = (
        (await (await fetch(`${new URL(base).origin}${page}`, { headers })).json()) as { meta: { total: number } }
      ).meta.total;
      console.info(`${kind}: the view ${page} matches ${total} of ${SUBSCRIBERS} subscribers`);
      const run = (scenario: string, options: LoadOptions, budget: Budget | null) =>
        measureLine({ database: kind, scenario, budget }, (seconds) => load(options, seconds), {
          warmupSeconds: WARMUP_SECONDS,
          seconds: DURATION_SECONDS,
        });
      const viewsPath = `${new URL(base).pathname}/views/subscribers`;
      const uncached: string[] = [];
      for (let size = 10; size <= 50; size += 1)
        for (let number = 1; number <= 40; number += 1)
          uncached.push(
            `${listPath}?${new URLSearchParams({ ...query, _page: String(number), _page_size: String(size) })}`,
          );
      return [
        await run(
          'saved view (3 filters), first page of 20',
          { origin: new URL(base).origin, paths: [page], headers },
          BUDGET[kind],
        ),
        await run(
          `... a new page each request, ${PEOPLE_RATE} req/s`,
          {
            origin: new URL(base).origin,
            paths: uncached,
            headers,
            connections: PAGING_CONNECTIONS,
            rate: PEOPLE_RATE,
          },
          RATE_BUDGET[kind],
        ),
        await run(
          '... a new page each request, as fast as answered',
          { origin: new URL(base).origin, paths: uncached, headers },
          null,
        ),
        await run(
          '... a new page each request, 1 connection',
          { origin: new URL(base).origin, paths: uncached, headers, connections: 1 },
          null,
        ),
        await run(
          `GET views/subscribers, ${PEOPLE_RATE} req/s`,
          { origin: new URL(base).origin, paths: [viewsPath], headers, rate: PEOPLE_RATE },
          RATE_BUDGET[kind],
        ),
        await run(
          'GET views/subscribers, as fast as answered',
          { origin: new URL(base).origin, paths: [viewsPath], headers },
          null,
        ),
      ];
    },
  );
}

/** Saves the view as the console does, reads it back as the list does, and gives the list query it stands for. */
async function savedViewQuery(base: string, headers: Record<string, string>): Promise<Record<string, string>> {
  const countries = (
    (await (await fetch(`${base}/countries/options`, { headers })).json()) as { data: Array<{ value: number }> }
  ).data
    .slice(0, 3)
    .map((option) => option.value);
  const view = {
    name: 'Active trade accounts',
    query: { status: 'trial,active', country_id: countries.join(','), plan_id_empty: 'false' },
  };
  const saved = await fetch(`${base}/views/subscribers`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(view),
  });
  if (saved.status !== 201) throw new Error(`Saving the view answered ${saved.status}: ${await saved.text()}`);
  const { data } = (await (await fetch(`${base}/views/subscribers`, { headers })).json()) as {
    data: { views: Array<{ name: string; query: Record<string, string> }> };
  };
  return data.views.find((candidate) => candidate.name === view.name)!.query;
}

/**
 * 50 connections unless given (one shows what a request costs on its own, without waiting behind others); at `rate`
 * requests a second when given, else each connection's next request as soon as its last is answered.
 */
type LoadOptions = Omit<RotatingLoad, 'connections'> & { connections?: number; rate?: number };

const load = ({ rate, ...options }: LoadOptions, seconds: number) =>
  rate
    ? pacedLoad({ connections: CONNECTIONS, ...options, rate }, seconds)
    : rotatingLoad({ connections: CONNECTIONS, ...options }, seconds);

await main();
