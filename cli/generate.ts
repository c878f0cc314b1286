import type { Command } from 'commander';
import { buildModel, emitAll, formatManifestError, writeGenerated } from '../codegen/index.ts';
import { EXIT, type ExitCode } from './exitCodes.ts';
import type { Io, PathOptions } from './options.ts';

export function registerGenerate(program: Command, io: Io, setExit: (code: ExitCode) => void): void {
  program
    .command('generate')
    .description(
      'validate the manifest and write src/generated, server/generated and codegen/generated (only files whose bytes change)',
    )
    .action(async (_options, command: Command) => {
      setExit(await runGenerate(command.optsWithGlobals<PathOptions>(), io));
    });
}

export async function runGenerate(options: PathOptions, io: Io): Promise<ExitCode> {
  const built = await buildModel(options.manifest);
  if (!built.model) {
    for (const error of built.errors) io.error(formatManifestError(error));
    io.error(`${built.errors.length} manifest error(s); nothing was written.`);
    return EXIT.invalidOrStale;
  }
  const files = await emitAll(built.model);
  const report = await writeGenerated(options.out, files);
  for (const path of report.written) io.log(`wrote ${path}`);
  for (const path of report.removed) io.log(`removed ${path}`);
  io.log(
    `${files.size} generated files: ${report.written.length} written, ${report.removed.length} removed, ${report.unchanged} unchanged.`,
  );
  return EXIT.ok;
}
