import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { registerAddModule } from './addModule.ts';
import { registerCheck } from './check.ts';
import { EXIT, type ExitCode } from './exitCodes.ts';
import { registerGenerate } from './generate.ts';
import { registerMakeMigration } from './makeMigration.ts';
import type { Io } from './options.ts';
import { registerPlan } from './plan.ts';
import { registerValidate } from './validate.ts';

const projectRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Builds the program; `main` runs it. Returns the exit code: 0 ok, 1 invalid or stale, 2 usage. */
export async function main(argv: string[], io: Io = terminalIo()): Promise<ExitCode> {
  let exitCode: ExitCode = EXIT.ok;
  const setExit = (code: ExitCode) => {
    exitCode = code;
  };
  const program = new Command('admin-codegen')
    .description('Generates the admin console and the reference API tables from the module manifest.')
    .option('--manifest <dir>', 'the manifest folder', resolve(projectRoot, 'manifest'))
    .option('--out <dir>', 'the project root the generated folders are written under', projectRoot)
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.log(text.trimEnd()), writeErr: (text) => io.error(text.trimEnd()) });
  registerGenerate(program, io, setExit);
  registerCheck(program, io, setExit);
  registerValidate(program, io, setExit);
  registerAddModule(program, io, setExit);
  registerMakeMigration(program, io, setExit);
  registerPlan(program, io, setExit);
  for (const command of program.commands) command.exitOverride();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      const helpShown =
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.help' ||
        error.code === 'commander.version';
      return helpShown ? EXIT.ok : EXIT.usage;
    }
    throw error;
  }
  return exitCode;
}

/** The console; questions are asked only when both ends are a terminal (never in CI or a pipe). */
function terminalIo(): Io {
  const io: Io = { log: console.log, error: console.error };
  if (process.stdin.isTTY && process.stdout.isTTY) {
    io.ask = async (question) => {
      // Loaded when a question is asked, not on every run.
      const { createInterface } = await import('node:readline/promises');
      const terminal = createInterface({ input: process.stdin, output: process.stdout });
      try {
        return await terminal.question(question);
      } finally {
        terminal.close();
      }
    };
  }
  return io;
}
