import type { Command } from 'commander';
import { buildModel, formatManifestError } from '../codegen/index.ts';
import { EXIT, type ExitCode } from './exitCodes.ts';
import type { Io, PathOptions } from './options.ts';

export function registerValidate(program: Command, io: Io, setExit: (code: ExitCode) => void): void {
  program
    .command('validate')
    .description('check the manifest and print every error at once, each as file:/json/pointer: message')
    .action(async (_options, command: Command) => {
      const built = await buildModel(command.optsWithGlobals<PathOptions>().manifest);
      if (built.model) {
        const resources = built.model.areas.reduce((count, area) => count + area.resources.length, 0);
        io.log(`manifest is valid: ${built.model.areas.length} areas, ${resources} resources.`);
        setExit(EXIT.ok);
        return;
      }
      for (const error of built.errors) io.error(formatManifestError(error));
      io.error(`${built.errors.length} manifest error(s).`);
      setExit(EXIT.invalidOrStale);
    });
}
