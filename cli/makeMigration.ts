import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Command } from 'commander';
import type { DecisionFlags } from '../codegen/migrations/decisions.ts';
import { MANIFEST_MIGRATIONS } from '../contract/manifestMigrations.ts';
import { EXIT, type ExitCode } from './exitCodes.ts';
import { draftFromManifest } from './manifestDraft.ts';
import { withDecisionFlags } from './migrationFlags.ts';
import type { Io, PathOptions } from './options.ts';

type MakeMigrationFlags = DecisionFlags & { name?: string; empty?: boolean };

export function registerMakeMigration(program: Command, io: Io, setExit: (code: ExitCode) => void): void {
  withDecisionFlags(
    program
      .command('make-migration')
      .description(
        `write the next migration of the manifest's tables (${MANIFEST_MIGRATIONS}/NNNN_name.sql and its .shape.json) from what changed since the last`,
      )
      .option('--name <words>', 'what the migration does, for its file name (made from what changed when absent)')
      .option('--empty', 'a migration whose steps you write, while the data shape stays as it is (needs --name)'),
  )
    .addHelpText(
      'after',
      '\nExample:\n  admin-codegen make-migration --name "voucher details" --rename vouchers.description=details',
    )
    .action(async (flags: MakeMigrationFlags, command: Command) => {
      setExit(await runMakeMigration(command.optsWithGlobals<PathOptions>(), flags, io));
    });
}

export async function runMakeMigration(paths: PathOptions, flags: MakeMigrationFlags, io: Io): Promise<ExitCode> {
  const drafted = await draftFromManifest(paths, flags, io, { name: flags.name, empty: flags.empty });
  if (typeof drafted === 'number') return drafted;
  const { folder, draft } = drafted;
  if (draft.kind === 'unchanged') {
    io.log(`No change: the manifest's data shape is the one migration ${draft.last} leaves. Nothing was written.`);
    return EXIT.ok;
  }
  if (draft.kind === 'refused') {
    for (const refusal of draft.refusals) io.error(refusal);
    io.error('Nothing was written.');
    return EXIT.invalidOrStale;
  }
  await mkdir(folder, { recursive: true });
  for (const [file, text] of [
    [`${draft.name}.sql`, draft.sql],
    [`${draft.name}.shape.json`, draft.shape],
  ] as const) {
    await writeFile(join(folder, file), text);
    io.log(`wrote ${relative(paths.out, join(folder, file))}`);
  }
  for (const line of draft.summary) io.log(`  - ${line}`);
  io.log(
    `Review ${draft.name}.sql (${draft.steps.length} step(s)), see what it does to your database with \`npm run plan\`, then commit both files.`,
  );
  return EXIT.ok;
}
