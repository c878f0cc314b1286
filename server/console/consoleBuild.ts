import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SIGN_IN_PAGE_FILE } from './signInPage.ts';
import { builtWithDevMailbox } from './consoleFlavour.mjs';

const BUILD_TIMEOUT_MS = 5 * 60 * 1000;

export interface ConsoleBuildOptions {
  /** Build the development mailbox screen in (a server not in production); a build made otherwise is made again. */
  devMailbox: boolean;
}

/**
 * Builds the console with Vite when dist/ is missing, older than its sources, or built with or without the development
 * mailbox against `options`. Returns the folder to serve, or null (with the reason logged) when there is no console to
 * serve: the API then runs alone. The build runs beside the event loop, so the port keeps answering "starting" meanwhile.
 */
export async function ensureConsoleBuilt(
  root: string,
  log: (line: string) => void,
  options: ConsoleBuildOptions,
): Promise<string | null> {
  const dist = join(root, 'dist');
  const index = join(dist, 'index.html');
  if (!existsSync(join(root, 'index.html')) || !existsSync(join(root, 'src'))) {
    log('No console sources (index.html, src/) yet: serving the API alone.');
    return existsSync(index) ? dist : null;
  }
  // A build from before the sign-in page existed is built again.
  const built = existsSync(index) && existsSync(join(dist, SIGN_IN_PAGE_FILE)) ? statSync(index).mtimeMs : 0;
  const sources = Math.max(
    newest(join(root, 'src')),
    newest(join(root, 'contract')),
    statSync(join(root, 'index.html')).mtimeMs,
  );
  const sameKind = builtWithDevMailbox(dist) === options.devMailbox;
  if (built >= sources && sameKind) return dist;
  if (!built) log('Building the console with Vite (first start) ...');
  else if (!sameKind)
    log(
      `The console was built ${options.devMailbox ? 'without' : 'with'} the development mailbox: building it again with Vite ...`,
    );
  else log('The console sources changed since the last build: building it with Vite ...');
  const exit = await new Promise<string | number>((resolve) => {
    const env = { ...process.env, CONSOLE_DEV_MAILBOX: String(options.devMailbox) };
    const build = spawn('npx', ['vite', 'build'], {
      cwd: root,
      env,
      stdio: 'inherit',
      timeout: BUILD_TIMEOUT_MS,
      shell: false,
    });
    build.once('error', (error) => resolve(error.message));
    build.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  if (exit === 0 && existsSync(index)) return dist;
  log(`The console build failed (exit ${exit}): serving the API alone. Fix the build and restart, or use npm run dev.`);
  return null;
}

/** The newest modification time under a folder, bounded in depth. */
function newest(folder: string, depth = 0): number {
  if (depth > 12) return 0;
  let latest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path, depth + 1) : statSync(path).mtimeMs);
  }
  return latest;
}
