import type { DataShape } from '../../contract/dataShape.ts';
import { tableExists } from './catalog.ts';
import type { Database, Queryable } from './database.ts';
import { knownMigrations, type KnownMigrations, type Migration, type MigrationSources } from './knownMigrations.ts';
import { fireTriggersAtOnce, MigrationRefused, pendingMigrations, recordedMigrations, stepFailure } from './migrate.ts';
import { schemaDifferences } from './schemaCheck.ts';
import { startupTransaction } from './startupLock.ts';

export interface StepPlan {
  title: string;
  /** The rows the step affects, counted just before it; null when it counts none. */
  rows: number | null;
  /** Why the step would stop the migration (rows that do not fit, named); the plan stops there. */
  refused: string | null;
}

export interface MigrationPlan {
  version: string;
  /** Not written yet: what make-migration would write from the manifest now. */
  draft: boolean;
  steps: StepPlan[];
}

export interface PlanReport {
  /** Why nothing can be applied to this database (ahead, diverged); null when the migrations can run. */
  refused: string | null;
  migrations: MigrationPlan[];
  /** Where the database would differ from the last shape once they are applied. */
  differences: string[];
}

/** The draft migration a plan adds after the committed ones. */
export interface DraftForPlan {
  migration: Migration;
  shape: DataShape;
}

/** Thrown with the report once everything ran, so the transaction rolls back. */
class RollBack {
  constructor(readonly report: PlanReport) {}
}
/** A plan waits this long for a table the application is using, then says so rather than queue everyone behind it. */
const LOCK_TIMEOUT = '10s';

/**
 * What applying the pending migrations (and the draft) would do to this database, step by step, with the rows each
 * affects: they run, exactly as the server's start would run them, in a transaction that is always rolled back, so
 * nothing changes. The first step that would stop the migration is reported with its rows, and the plan ends there.
 * Like the start, it takes the locks the steps take, for as long as they run.
 */
export async function planMigrations(
  db: Database,
  sources: MigrationSources,
  draft: DraftForPlan | null = null,
): Promise<PlanReport> {
  const known = await knownMigrations(sources);
  try {
    await startupTransaction(db, (tx) => planInTransaction(tx, known, draft));
  } catch (error) {
    if (error instanceof RollBack) return error.report;
    throw error;
  }
  throw new Error('a plan always rolls back');
}

async function planInTransaction(tx: Queryable, known: KnownMigrations, draft: DraftForPlan | null): Promise<never> {
  await tx.query(`SELECT set_config('lock_timeout', '${LOCK_TIMEOUT}', true)`);
  await fireTriggersAtOnce(tx);
  const recorded = (await tableExists(tx, 'schema_migrations'))
    ? await recordedMigrations(tx)
    : new Map<string, string>();
  let pending: Migration[];
  try {
    pending = pendingMigrations(known.migrations, recorded);
  } catch (error) {
    if (!(error instanceof MigrationRefused)) throw error;
    throw new RollBack({ refused: error.message, migrations: [], differences: [] });
  }
  const migrations = [
    ...pending.map((migration) => ({ migration, draft: false })),
    ...(draft ? [{ migration: draft.migration, draft: true }] : []),
  ];
  const planned: MigrationPlan[] = [];
  const report: PlanReport = { refused: null, migrations: planned, differences: [] };
  for (const { migration, draft: isDraft } of migrations) {
    const plan: MigrationPlan = { version: migration.version, draft: isDraft, steps: [] };
    planned.push(plan);
    for (const [index, step] of migration.steps.entries()) {
      const stepPlan: StepPlan = { title: step.title, rows: null, refused: null };
      plan.steps.push(stepPlan);
      try {
        if (step.rows) stepPlan.rows = Number((await tx.query<{ count: number }>(step.rows))[0]?.count ?? 0);
        await tx.exec(step.sql);
      } catch (error) {
        stepPlan.refused = stepFailure(migration, index, step, error).message;
        throw new RollBack(report);
      }
    }
  }
  const shape = draft?.shape ?? known.shape;
  if (shape) report.differences = await schemaDifferences(tx, shape);
  throw new RollBack(report);
}
