import type { Command } from 'commander';
import { buildModel, emitAll, findDrift, formatManifestError } from '../codegen/index.ts';
import { unmigratedChanges } from '../codegen/migrations/unmigratedChanges.ts';
import { EXIT, type ExitCode } from './exitCodes.ts';
import type { Io, PathOptions } from './options.ts';

export function registerCheck(program: Command, io: Io, setExit: (code: ExitCode) => void): void {
  program
    .command('check')
    .description(
      'write nothing; exit 1 listing every stale, missing or extra generated file and any change of the data shape no migration makes, 0 when all match the manifest',
    )
    .action(async (_options, command: Command) => {
      const options = command.optsWithGlobals<PathOptions>();
      const built = await buildModel(options.manifest);
      if (!built.model) {
        for (const error of built.errors) io.error(formatManifestError(error));
        setExit(EXIT.invalidOrStale);
        return;
      }
      const [drift, unmigrated] = await Promise.all([
        findDrift(options.out, await emitAll(built.model)),
        unmigratedChanges(built.model, options.out),
      ]);
      for (const path of drift.stale) io.error(`stale: ${path}`);
      for (const path of drift.missing) io.error(`missing: ${path}`);
      for (const path of drift.extra) io.error(`extra: ${path}`);
      const count = drift.stale.length + drift.missing.length + drift.extra.length;
      if (count > 0) io.error(`${count} generated file(s) do not match the manifest: run \`npm run generate\`.`);
      for (const line of unmigrated) io.error(line);
      if (count > 0 || unmigrated.length > 0) {
        setExit(EXIT.invalidOrStale);
      } else {
        io.log('generated files and migrations match the manifest.');
        setExit(EXIT.ok);
      }
    });
}
