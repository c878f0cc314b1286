import { join } from 'node:path';
import { buildModel, formatManifestError } from '../codegen/index.ts';
import type { DecisionFlags } from '../codegen/migrations/decisions.ts';
import { draftMigration, type Draft } from '../codegen/migrations/draftMigration.ts';
import { MANIFEST_MIGRATIONS, readManifestMigrations } from '../contract/manifestMigrations.ts';
import { EXIT, type ExitCode } from './exitCodes.ts';
import { decisionsOf } from './migrationFlags.ts';
import type { Io, PathOptions } from './options.ts';

/**
 * The migration the manifest's data shape calls for now, as make-migration and plan both start: the decision
 * flags read, the manifest built, the committed migrations read. A problem is reported through `io` and answered as
 * the exit code to end with.
 */
export async function draftFromManifest(
  paths: PathOptions,
  flags: DecisionFlags,
  io: Io,
  draftOptions: { name?: string | undefined; empty?: boolean | undefined } = {},
): Promise<{ folder: string; draft: Draft } | ExitCode> {
  const { decisions, errors } = decisionsOf(flags);
  if (errors.length > 0) {
    for (const error of errors) io.error(error);
    return EXIT.usage;
  }
  const built = await buildModel(paths.manifest);
  if (!built.model) {
    for (const error of built.errors) io.error(formatManifestError(error));
    io.error(`${built.errors.length} manifest error(s); nothing was written.`);
    return EXIT.invalidOrStale;
  }
  const folder = join(paths.out, MANIFEST_MIGRATIONS);
  const committed = await readManifestMigrations(folder);
  if (committed.problems.length > 0) {
    for (const problem of committed.problems) io.error(problem);
    return EXIT.invalidOrStale;
  }
  const draft = await draftMigration(built.model, committed.migrations, {
    ...(draftOptions.name ? { name: draftOptions.name } : {}),
    ...(draftOptions.empty ? { empty: true } : {}),
    decisions,
    ask: io.ask ?? null,
  });
  return { folder, draft };
}
