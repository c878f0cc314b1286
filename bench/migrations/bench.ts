/**
 * npm run bench:migrations: planning and applying manifest migrations on 1,000,000 vouchers on PostgreSQL.
 *
 * The real manifest's migrations make the tables, and the CLI's own draft adds a field of the bench's to the vouchers
 * (print_run, an integer: the fields a sale reads, VOUCHER_FIELDS, are a contract the codegen holds, so their types do
 * not change); the vouchers get a million rows, each with a print run; then the CLI's draft of two changes is planned
 * (`plan`: run in a transaction that is rolled back) and applied (`migrate`, as the server's start): a rename with a
 * widening conversion (description -> details, print_run integer -> string), then a narrowing conversion checked row
 * by row (print_run string -> integer, which refuses values that do not convert).
 * While each runs, a second connection probes the table every 50 ms (a read, and a row lock as a writer takes), each
 * giving up after 25 ms: the figures say for how long the table could not be read or written.
 */
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildModel } from '../../codegen/index.ts';
import { noDecisions, parseDecisions } from '../../codegen/migrations/decisions.ts';
import { draftMigration, type Draft } from '../../codegen/migrations/draftMigration.ts';
import { readManifestMigrations } from '../../contract/manifestMigrations.ts';
import { DEFAULT_SOURCES, sha256 } from '../../server/db/knownMigrations.ts';
import { migrate } from '../../server/db/migrate.ts';
import { planMigrations } from '../../server/db/planMigrations.ts';
import { openPostgres, quoteIdentifier } from '../../server/db/postgres.ts';
import { editVouchers, probeTable, renameField, type ProbeReport } from './support.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Each change, planned or applied, on a million rows: a type change rewrites the table and rebuilds its indexes. */
const BUDGET = { renameAndWidenMs: 60_000, narrowMs: 60_000 };
type Drafted = Extract<Draft, { kind: 'draft' }>;

const schema = `bench_migrations_${randomBytes(4).toString('hex')}`;
const work = await mkdtemp(join(tmpdir(), 'bench-migrations-'));
const manifestDir = join(work, 'manifest');
const migrationsDir = join(work, 'migrations');
const db = await openPostgres(DATABASE_URL, schema, 2);
const probeClient = new pg.Client({
  connectionString: DATABASE_URL,
  options: `-c search_path=${quoteIdentifier(schema)},public -c lock_timeout=25`,
});
let failed = false;
const verdict = (ok: boolean) => {
  if (!ok) failed = true;
  return ok ? 'PASS' : 'FAIL';
};

try {
  await cp(join(import.meta.dirname, '../../manifest'), manifestDir, { recursive: true });
  await cp(DEFAULT_SOURCES.manifest, migrationsDir, { recursive: true });
  await migrate(db, { sources: { core: DEFAULT_SOURCES.core, manifest: migrationsDir } });
  await editVouchers(manifestDir, (vouchers) => {
    vouchers.entity.schema.properties.print_run = { title: 'Print run', type: 'integer', minimum: 1 };
  });
  const added = await draftNext([]);
  await writeDraft(added);
  await migrate(db, { sources: { core: DEFAULT_SOURCES.core, manifest: migrationsDir } });
  const seeded = performance.now();
  await seedVouchers();
  console.log(
    `${ROWS.toLocaleString('en')} vouchers seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s (PostgreSQL, schema ${schema})`,
  );
  console.log(`${added.name}: the bench's own field print_run (integer), added before the seed`);
  await probeClient.connect();

  await editVouchers(manifestDir, (vouchers) => {
    renameField(vouchers, 'description', 'details');
    vouchers.entity.schema.properties.print_run = { title: 'Print run', type: 'string', maxLength: 20 };
  });
  await measure(
    'rename description -> details, convert print_run integer -> string',
    ['--rename', 'vouchers.description=details'],
    BUDGET.renameAndWidenMs,
  );

  await editVouchers(manifestDir, (vouchers) => {
    vouchers.entity.schema.properties.print_run = { title: 'Print run', type: 'integer', minimum: 1 };
  });
  await measure('convert print_run string -> integer, each value checked', [], BUDGET.narrowMs);
} finally {
  await probeClient.end().catch(() => undefined);
  await db.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`).catch(() => undefined);
  await db.close();
  await rm(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

/** The CLI's draft of the next migration from the edited manifest, with the decisions its flags give. */
async function draftNext(flags: string[]): Promise<Drafted> {
  const built = await buildModel(manifestDir);
  if (!built.model) throw new Error(`the edited manifest is invalid: ${JSON.stringify(built.errors)}`);
  const { decisions } = flags.length
    ? parseDecisions({ rename: flags.filter((_, index) => index % 2 === 1), removed: [], drop: [], backfill: [] })
    : { decisions: noDecisions() };
  const draft = await draftMigration(built.model, (await readManifestMigrations(migrationsDir)).migrations, {
    decisions,
    ask: null,
  });
  if (draft.kind !== 'draft') throw new Error(`no migration drafted: ${JSON.stringify(draft)}`);
  return draft;
}

/** A draft written beside the manifest's migrations, as make-migration writes it. */
async function writeDraft(draft: Drafted): Promise<void> {
  await writeFile(join(migrationsDir, `${draft.name}.sql`), draft.sql);
  await writeFile(join(migrationsDir, `${draft.name}.shape.json`), draft.shape);
}

/** Plans, writes and applies the next migration from the edited manifest, probing the table meanwhile. */
async function measure(what: string, flags: string[], budgetMs: number): Promise<void> {
  const draft = await draftNext(flags);
  console.log(`\n${draft.name}: ${what}`);

  const planProbe = probeTable(probeClient);
  const planStarted = performance.now();
  const plan = await planMigrations(
    db,
    { core: DEFAULT_SOURCES.core, manifest: migrationsDir },
    {
      migration: {
        version: `manifest/${draft.name}`,
        series: 'manifest',
        steps: draft.steps,
        checksum: sha256(draft.sql),
      },
      shape: JSON.parse(draft.shape),
    },
  );
  const planMs = performance.now() - planStarted;
  const planned = await planProbe.stop();
  for (const step of plan.migrations.at(-1)!.steps)
    console.log(
      `  step: ${step.title}${step.rows === null ? '' : ` (${step.rows.toLocaleString('en')} rows)`}${step.refused ? ` REFUSED ${step.refused}` : ''}`,
    );

  await writeDraft(draft);
  const applyProbe = probeTable(probeClient);
  const applyStarted = performance.now();
  await migrate(db, { sources: { core: DEFAULT_SOURCES.core, manifest: migrationsDir } });
  const applyMs = performance.now() - applyStarted;
  const applied = await applyProbe.stop();

  console.log(
    `  plan:  ${seconds(planMs)} (budget ${seconds(budgetMs)}) ${verdict(planMs < budgetMs)}; ${locked(planned, planMs)}`,
  );
  console.log(
    `  apply: ${seconds(applyMs)} (budget ${seconds(budgetMs)}) ${verdict(applyMs < budgetMs)}; ${locked(applied, applyMs)}`,
  );
}

function locked(probe: ProbeReport, totalMs: number): string {
  const share = (ms: number) => `${seconds(ms)} (${Math.round((100 * ms) / totalMs)}%)`;
  return `the table refused reads for ${share(probe.readBlockedMs)} and writes for ${share(probe.writeBlockedMs)}, longest ${seconds(probe.longestBlockedMs)} (${probe.probes} probes)`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

/** A million vouchers, each with a print run, in batches, the table's own triggers off meanwhile (a seed, not a change anyone reads). */
async function seedVouchers(): Promise<void> {
  await db.exec('ALTER TABLE vouchers DISABLE TRIGGER USER');
  const batch = 100_000;
  for (let from = 1; from <= ROWS; from += batch) {
    await db.query(
      `INSERT INTO vouchers (code, description, discount_type, discount_value, valid_from, valid_to, usage_limit, print_run)
       SELECT 'V' || lpad(n::text, 8, '0'), 'Voucher ' || n, CASE WHEN n % 2 = 0 THEN 'percent' ELSE 'flat' END, 1 + n % 50, DATE '2026-01-01', DATE '2026-12-31', 1 + n % 100, 100 * (1 + n % 500)
         FROM generate_series($1::bigint, $2::bigint) AS n`,
      [from, Math.min(ROWS, from + batch - 1)],
    );
  }
  await db.exec('ALTER TABLE vouchers ENABLE TRIGGER USER; ANALYZE vouchers');
}
