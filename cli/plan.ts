import type { Command } from 'commander';
import type { DecisionFlags } from '../codegen/migrations/decisions.ts';
import type { DataShape } from '../contract/dataShape.ts';
import type { DraftForPlan, PlanReport } from '../server/db/planMigrations.ts';
import { EXIT, type ExitCode } from './exitCodes.ts';
import { draftFromManifest } from './manifestDraft.ts';
import { withDecisionFlags } from './migrationFlags.ts';
import type { Io, PathOptions } from './options.ts';

type PlanDatabase = (
  manifestMigrations: string,
  draft: DraftForPlan | null,
) => Promise<{ database: string; report: PlanReport }>;

export function registerPlan(program: Command, io: Io, setExit: (code: ExitCode) => void): void {
  withDecisionFlags(
    program
      .command('plan')
      .description(
        'print what the pending migrations, and the one make-migration would write from the manifest now, would do to the database DATABASE_URL or DATA_DIR names (rows affected per step); changes nothing',
      ),
  ).action(async (flags: DecisionFlags, command: Command) => {
    setExit(await runPlan(command.optsWithGlobals<PathOptions>(), flags, io));
  });
}

async function runPlan(paths: PathOptions, flags: DecisionFlags, io: Io): Promise<ExitCode> {
  const drafted = await draftFromManifest(paths, flags, io);
  if (typeof drafted === 'number') return drafted;
  const { folder, draft } = drafted;
  if (draft.kind === 'refused') {
    io.error("The manifest's change cannot be planned until make-migration is told:");
    for (const refusal of draft.refusals) io.error(refusal);
  }
  const forPlan: DraftForPlan | null =
    draft.kind === 'draft'
      ? {
          migration: { version: `manifest/${draft.name}`, series: 'manifest', steps: draft.steps, checksum: '' },
          shape: JSON.parse(draft.shape) as DataShape,
        }
      : null;
  const { database, report } = await (await databaseSide())(folder, forPlan);
  io.log(`Database: ${database}`);
  if (report.refused) {
    io.error(report.refused);
    return EXIT.invalidOrStale;
  }
  if (report.migrations.length === 0)
    io.log(
      "Nothing to apply: the database has every migration, and the manifest's data shape has no change to migrate.",
    );
  let refused = draft.kind === 'refused';
  for (const migration of report.migrations) {
    io.log(
      `${migration.version}${migration.draft ? '  (not written yet: make-migration would write it)' : '  (pending)'}`,
    );
    if (migration.steps.length === 0) io.log('    nothing changes in the database');
    migration.steps.forEach((step, index) => {
      io.log(
        `  ${String(index + 1).padStart(3)}. ${step.title}${step.rows === null ? '' : `: ${step.rows.toLocaleString('en')} row(s)`}`,
      );
      if (step.refused) {
        refused = true;
        io.error(`       REFUSED: ${step.refused}`);
      }
    });
  }
  if (report.differences.length > 0) {
    refused = true;
    io.error(`Once applied, the database would still differ from the data shape: ${report.differences.join('; ')}.`);
  }
  io.log('Nothing was changed: the plan ran the migrations in a transaction that was rolled back.');
  return refused ? EXIT.invalidOrStale : EXIT.ok;
}

/** Loaded only when planning, so that the other commands never load the database drivers. */
async function databaseSide(): Promise<PlanDatabase> {
  const { tsImport } = await import('tsx/esm/api');
  const loaded = (await tsImport(new URL('../server/cli/planDatabase.ts', import.meta.url).href, import.meta.url)) as {
    planDatabase: PlanDatabase;
  };
  return loaded.planDatabase;
}
