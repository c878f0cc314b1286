/**
 * npm run bench:trade-report: the uploaded-data report (GET uploaded-data-report through the real app, app.inject)
 * on 50M trade records on PostgreSQL (96 uploads of ~520k records, load.ts) and 2M on PGlite. For each filter shape,
 * the first page's p95 (budget 100 ms: its total comes from the uploads' counts, or the planner's estimate), the next
 * page by keyset (100 ms), a page deep in the data by its cursor (100 ms), a search within a month (1 s), a search
 * over everything (no budget: bounded by the search timeout), and the bare SQL of the same page for comparison.
 * BENCH_DATABASES (pglite,postgres), BENCH_ROWS_PER_UPLOAD (PostgreSQL, 520000), BENCH_PGLITE_ROWS_PER_UPLOAD (20834),
 * BENCH_SAMPLES (30); BENCH_KEEP=1 keeps the PostgreSQL schema (a later run measures it without loading again).
 * The PostgreSQL is BENCH_DATABASE_URL, else bench_report on 127.0.0.1.
 */
import { randomBytes } from 'node:crypto';
import { loadavg, tmpdir } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/start/loadConfig.ts';
import type { Database } from '../../server/db/database.ts';
import { migrate } from '../../server/db/migrate.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres, quoteIdentifier } from '../../server/db/postgres.ts';
import { PasswordHasher } from '../../server/modules/auth/passwords.ts';
import { MemoryStorage } from '../../server/modules/uploads/storage.ts';
import { DATA_SHAPE } from '../../server/registry.ts';
import { seedRolesAndUsers } from '../../server/seed/roles.ts';
import { TEST_PASSWORD_HASHING } from '../../server/testing/testServer.ts';
import { postgresReachable } from '../support/load.ts';
import { loadTradeRecords, type LoadedUpload } from './load.ts';

type Kind = 'pglite' | 'postgres';
const DATABASES = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',') as Kind[];
const ROWS_PER_UPLOAD: Record<Kind, number> = {
  postgres: Number(process.env.BENCH_ROWS_PER_UPLOAD ?? 520_000),
  pglite: Number(process.env.BENCH_PGLITE_ROWS_PER_UPLOAD ?? 20_834),
};
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);
const POSTGRES = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_report';
const SCHEMA = 'trade_report_bench';
const PAGE_BUDGET_MS = 100;
const SEARCH_BUDGET_MS = 1_000;

interface Line {
  database: Kind;
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
async function measure(
  database: Kind,
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

async function open(kind: Kind): Promise<{ db: Database; cleanup: () => Promise<void> }> {
  if (kind === 'postgres') {
    const admin = await openPostgres(POSTGRES, null, 1);
    await admin.exec(`CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public`);
    await admin.exec(
      `ALTER DATABASE ${quoteIdentifier(new URL(POSTGRES).pathname.slice(1))} SET maintenance_work_mem = '256MB'`,
    );
    await admin.close();
    const db = await openPostgres(POSTGRES, SCHEMA, 6);
    return {
      db,
      cleanup: async () =>
        process.env.BENCH_KEEP === '1' ? undefined : db.exec(`DROP SCHEMA ${quoteIdentifier(SCHEMA)} CASCADE`),
    };
  }
  const folder = await mkdtemp(join(tmpdir(), 'trade-report-bench-'));
  const db = await openPglite(folder);
  return { db, cleanup: () => rm(folder, { recursive: true, force: true }) };
}

async function benchDatabase(kind: Kind): Promise<void> {
  const { db, cleanup } = await open(kind);
  let app: FastifyInstance | null = null;
  try {
    await migrate(db, { manifestShape: DATA_SHAPE });
    const config = loadConfig({ NODE_ENV: 'test' } as NodeJS.ProcessEnv, {
      dataDir: null,
      databaseUrl: null,
      jwtSecret: randomBytes(32),
      passwordHashing: TEST_PASSWORD_HASHING,
    });
    await seedRolesAndUsers(db, new PasswordHasher(config.passwordHashing));
    app = await buildApp({ config, db, storage: new MemoryStorage() });
    await app.ready();
    const signIn = async () => {
      const login = await app!.inject({
        method: 'POST',
        url: '/api/v1/login',
        payload: { email: 'admin@example.com', password: 'Admin@12345' },
      });
      return { authorization: `Bearer ${(login.json() as { data: { access: string } }).data.access}` };
    };
    console.info(
      `${kind}: loading ${(ROWS_PER_UPLOAD[kind] * 96).toLocaleString('en')} trade records (load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')})`,
    );
    const { uploads, seconds } = await loadTradeRecords(app, db, ROWS_PER_UPLOAD[kind], await signIn());
    console.info(
      seconds
        ? `${kind}: loaded in ${seconds.toFixed(0)} s (load average ${loadavg()
            .map((n) => n.toFixed(1))
            .join(' ')})`
        : `${kind}: the data set was kept from an earlier run`,
    );
    // Signed in again: a load outlasts an access token.
    await measureReport(kind, app, db, await signIn(), uploads);
  } finally {
    await app?.close();
    await cleanup();
    await db.close();
  }
}

interface PageAnswer {
  data: Array<{ id: number }>;
  meta: { total: number; total_is_estimate: boolean; next: string | null };
}

async function measureReport(
  kind: Kind,
  app: FastifyInstance,
  db: Database,
  headers: Record<string, string>,
  uploads: LoadedUpload[],
): Promise<void> {
  const get = async (query: string): Promise<PageAnswer> => {
    const response = await app.inject({ method: 'GET', url: `/api/v1/uploaded-data-report?${query}`, headers });
    if (response.statusCode !== 200) throw new Error(`${query}: ${response.statusCode} ${response.body.slice(0, 300)}`);
    return response.json() as PageAnswer;
  };
  const shown = (answer: PageAnswer) =>
    `(${answer.meta.total_is_estimate ? 'about ' : ''}${answer.meta.total.toLocaleString('en')} records, ${answer.data.length} on the page)`;
  const pick = (index: number) => uploads[(index * 37) % uploads.length]!;
  const shapes: Array<[string, (index: number) => string]> = [
    ['no filter', () => ''],
    ['country', (index) => `country_id=${pick(index).countryId}`],
    [
      'country and direction',
      (index) => `country_id=${pick(index).countryId}&trade_direction=${pick(index).direction}`,
    ],
    ['period', (index) => `period=${pick(index).period}`],
    [
      'period, country and direction',
      (index) =>
        `period=${pick(index).period}&country_id=${pick(index).countryId}&trade_direction=${pick(index).direction}`,
    ],
    ['upload', (index) => `upload_id=${pick(index).id}`],
  ];
  const variants = (query: (index: number) => string) => Array.from({ length: 6 }, (_, index) => query(index));
  console.info(
    `${kind}: measuring (load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')})`,
  );
  for (const [name, query] of shapes) {
    await measure(
      kind,
      `first page, ${name}`,
      PAGE_BUDGET_MS,
      variants(query).map((q) => async () => shown(await get(q))),
    );
  }
  for (const [name, query] of shapes) {
    const cursors = await Promise.all(variants(query).map(async (q) => [q, (await get(q)).meta.next] as const));
    await measure(
      kind,
      `next page by keyset, ${name}`,
      PAGE_BUDGET_MS,
      cursors.map(
        ([q, next]) =>
          async () =>
            shown(await get(`${q}&_after=${next}`)),
      ),
    );
  }
  // A page in the middle of the year, by the cursor of a record there: no OFFSET walks to it.
  const middle = await db.query<{ shipment_date: string; id: number }>(
    `SELECT shipment_date::text AS shipment_date, id FROM trade_records WHERE period = '2025-06' ORDER BY shipment_date DESC, id DESC LIMIT 1`,
  );
  const deep = Buffer.from(`${middle[0]!.shipment_date}|${middle[0]!.id}`).toString('base64url');
  await measure(kind, 'a page deep in the data by its cursor', PAGE_BUDGET_MS, [
    async () => shown(await get(`_after=${deep}`)),
  ]);
  // Terms as common as one record in ten, one in a hundred, one in a thousand, and none. The first two are spread over
  // the days; the generator gives saffron to every fourth day only, not to the newest three, so a newest-first walk
  // reads three days of every table of the month before its first match: the slow end of a search within a month.
  const terms = ['spice co', 'lot 77', 'saffron', 'no such thing'];
  const searched = (query: string) => async () => {
    const response = await app.inject({ method: 'GET', url: `/api/v1/uploaded-data-report?${query}`, headers });
    return response.statusCode === 200
      ? shown(response.json() as PageAnswer)
      : `(${response.statusCode}: ${response.body.slice(0, 60)}…)`;
  };
  await measure(
    kind,
    'search within a month',
    SEARCH_BUDGET_MS,
    terms.map((term, index) => searched(`period=${pick(index).period}&q=${encodeURIComponent(term)}`)),
  );
  await measure(
    kind,
    'search within a month and country',
    SEARCH_BUDGET_MS,
    terms.map((term, index) =>
      searched(`period=${pick(index).period}&country_id=${pick(index).countryId}&q=${encodeURIComponent(term)}`),
    ),
  );
  // Pepper is one record in ten but on even days only, none on the newest: the walk reads a day of every table first.
  await measure(kind, 'search within a month, no match on the newest day (worst)', null, [
    searched(`period=${uploads[0]!.period}&q=pepper`),
  ]);
  await measure(
    kind,
    'search over everything (bounded, no budget)',
    null,
    terms.map((term) => searched(`q=${encodeURIComponent(term)}`)),
  );
  // The same page as bare SQL: what the report adds (its total, the app) is the difference.
  const bare = (where: string, params: unknown[]) => async () =>
    `(${(await db.query(`SELECT * FROM trade_records ${where} ORDER BY shipment_date DESC, id DESC LIMIT 21`, params)).length} rows)`;
  await measure(kind, 'bare SQL page, no filter', null, [bare('', [])]);
  await measure(
    kind,
    'bare SQL page, country and direction',
    null,
    variants((index) => String(index)).map((_, index) =>
      bare('WHERE country_id = $1 AND trade_direction = $2', [pick(index).countryId, pick(index).direction]),
    ),
  );
  await measure(
    kind,
    'bare SQL page, period',
    null,
    variants((index) => String(index)).map((_, index) => bare('WHERE period = $1', [pick(index).period])),
  );
  if (kind === 'postgres') await printPlans(db, uploads);
}

async function printPlans(db: Database, uploads: LoadedUpload[]): Promise<void> {
  const plans: Array<[string, string, unknown[]]> = [
    ['first page, no filter', 'SELECT id FROM trade_records ORDER BY shipment_date DESC, id DESC LIMIT 21', []],
    [
      'first page, country and direction',
      'SELECT id FROM trade_records WHERE country_id = $1 AND trade_direction = $2 ORDER BY shipment_date DESC, id DESC LIMIT 21',
      [uploads[0]!.countryId, uploads[0]!.direction],
    ],
    [
      'search within a month',
      `SELECT id FROM trade_records WHERE period = $1 AND lower(coalesce(product_description, '') || ' ' || coalesce(hs_code, '') || ' ' || coalesce(importer, '') || ' ' || coalesce(exporter, '')) LIKE '%saffron%' ORDER BY shipment_date DESC, id DESC LIMIT 21`,
      [uploads[0]!.period],
    ],
  ];
  for (const [name, sql, params] of plans) {
    const rows = await db.query<Record<string, string>>(
      `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${sql}`,
      params,
    );
    const text = rows
      .map((row) => Object.values(row)[0])
      .filter(
        (line) =>
          !/^\s+->\s+Index Scan .*_(newest|country_newest) on trade_records_upload_\d+/.test(line ?? '') || false,
      );
    console.info(
      `\nEXPLAIN ANALYZE, ${name} (leaf index scans elided after the first lines):\n${text.slice(0, 14).join('\n')}\n  ...\n${text.slice(-3).join('\n')}`,
    );
  }
}

function printResults(): boolean {
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

for (const kind of DATABASES) {
  if (kind === 'postgres' && !(await postgresReachable(POSTGRES))) {
    console.warn(`PostgreSQL at ${POSTGRES} is unreachable: its lines are SKIPPED.`);
    continue;
  }
  await benchDatabase(kind);
}
process.exitCode = printResults() ? 0 : 1;
