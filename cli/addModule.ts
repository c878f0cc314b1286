import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { addModule, buildModel, formatManifestError, type AddModuleOptions } from '../codegen/index.ts';
import { ADD_MODULE_FIELD_TYPES } from '../codegen/addModule.ts';
import { ACTIONS } from '../codegen/vocabulary.ts';
import type { Action } from '../codegen/generated/manifest.ts';
import { dataShape, shapeDifferences } from '../contract/dataShape.ts';
import { MANIFEST_MIGRATIONS, readManifestMigrations } from '../contract/manifestMigrations.ts';
import { EXIT, type ExitCode } from './exitCodes.ts';
import { runGenerate } from './generate.ts';
import { runMakeMigration } from './makeMigration.ts';
import type { Io, PathOptions } from './options.ts';

/** The options as commander parses them: a flag per field and per composite key. */
type AddModuleFlags = Omit<AddModuleOptions, 'fields' | 'uniqueTogether'> & { field: string[]; unique: string[] };

export function registerAddModule(program: Command, io: Io, setExit: (code: ExitCode) => void): void {
  program
    .command('add-module')
    .description(
      'add a resource (and its area when new) to the manifest, generate, and write the migration of its table',
    )
    .requiredOption('--area <path>', 'area path, e.g. warehouse-management (a new area file is made when none has it)')
    .option('--area-key <KEY>', 'permission key of a new area, e.g. WAREHOUSE_MANAGEMENT')
    .option('--area-label <label>', 'label of a new area')
    .requiredOption('--key <KEY>', 'permission key of the resource, e.g. WAREHOUSE')
    .requiredOption('--label <label>', 'plural label, e.g. Warehouses')
    .requiredOption('--path <segment>', 'URL segment under the area, e.g. warehouses')
    .option('--actions <list>', `comma-separated actions from: ${ACTIONS.join(', ')}`, parseActions, [
      'view',
      'add',
      'edit',
      'delete',
      'ACTIVE_INACTIVE',
      'download',
    ] as Action[])
    .option(
      '--field <name:type[:required][:unique]>',
      `a field (repeatable); types: ${ADD_MODULE_FIELD_TYPES.join(', ')}`,
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option(
      '--unique <field,field...>',
      'fields unique together, a composite key (repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option('--no-history', 'keep no history of each record (changes are still audited, without a version to restore)')
    .option('--no-soft-delete', 'delete at once instead of into the trash')
    .addHelpText(
      'after',
      '\nExample:\n  admin-codegen add-module --area warehouse-management --area-key WAREHOUSE_MANAGEMENT --key WAREHOUSE \\\n    --label Warehouses --path warehouses --field name:string:required:unique --field city:string --field pincode:pincode \\\n    --unique city,pincode\n\nEach record keeps its history (restore a version) and delete moves it to the trash, unless --no-history or\n--no-soft-delete says otherwise.',
    )
    .action(async (flags: AddModuleFlags, command: Command) => {
      const paths = command.optsWithGlobals<PathOptions>();
      if (flags.field.length === 0) {
        io.error('add-module needs at least one --field name:type');
        setExit(EXIT.usage);
        return;
      }
      const result = await addModule(paths.manifest, { ...flags, fields: flags.field, uniqueTogether: flags.unique });
      if (!result.file) {
        for (const error of result.errors) io.error(formatManifestError(error));
        io.error('the module was not added; nothing was written.');
        setExit(EXIT.invalidOrStale);
        return;
      }
      await writeFile(join(paths.manifest, result.file), result.text);
      io.log(`added ${flags.key} to ${result.file}`);
      const generated = await runGenerate(paths, io);
      setExit(generated === EXIT.ok ? await migrateNewModule(paths, flags, io) : generated);
    });
}

/**
 * The new module's migration (its table, its module keys), written when that is all the manifest changed since the
 * last migration; a change made before it needs its own decisions, so it is left to make-migration, said so.
 */
async function migrateNewModule(paths: PathOptions, flags: AddModuleFlags, io: Io): Promise<ExitCode> {
  const { migrations } = await readManifestMigrations(join(paths.out, MANIFEST_MIGRATIONS));
  const built = await buildModel(paths.manifest);
  const last = migrations.at(-1);
  if (!built.model || !last) {
    io.log(
      `${MANIFEST_MIGRATIONS} has no migration yet: write the first, with every table, by \`npm run make-migration -- --name initial\`.`,
    );
    return EXIT.ok;
  }
  const resource = built.model.areas
    .flatMap((area) => area.resources)
    .find((candidate) => candidate.key === flags.key)!;
  const own = new Set([
    `table ${resource.entity?.table} is new`,
    `module ${resource.key} is new`,
    `module ${resource.areaKey} is new`,
  ]);
  const others = shapeDifferences(last.shape, dataShape(built.model.areas)).filter(
    (difference) => !own.has(difference),
  );
  if (others.length > 0) {
    io.error(
      `The manifest also changed in ways no migration makes yet (${others.join('; ')}): write one migration for them and ${flags.key} with \`npm run make-migration\`.`,
    );
    return EXIT.invalidOrStale;
  }
  return runMakeMigration(paths, { name: `add ${flags.key}`, rename: [], removed: [], drop: [], backfill: [] }, io);
}

function parseActions(value: string): Action[] {
  const actions = value
    .split(',')
    .map((action) => action.trim())
    .filter(Boolean);
  const unknown = actions.filter((action) => !ACTIONS.includes(action as Action));
  if (unknown.length > 0)
    throw new InvalidArgumentError(`unknown action(s) ${unknown.join(', ')}; expected ${ACTIONS.join(', ')}`);
  return actions as Action[];
}
