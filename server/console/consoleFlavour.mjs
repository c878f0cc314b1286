// Which kind of console build a dist/ folder holds. Plain JavaScript, so that both the server (consoleBuild.ts) and
// the scripts that build the console for a server they start (tests/e2e/lib/stack.mjs) read it the same way.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The development mailbox screen's module: a build has its chunk only when built with CONSOLE_DEV_MAILBOX=true. */
const DEV_MAILBOX_SCREEN = 'src/devMailbox/DevMailboxScreen.tsx';

/** Whether the build in `dist` has the development mailbox screen (Vite's manifest lists every chunk's source). */
export function builtWithDevMailbox(dist) {
  try {
    return DEV_MAILBOX_SCREEN in JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
  } catch {
    return false;
  }
}
