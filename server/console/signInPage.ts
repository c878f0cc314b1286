import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PRERENDERED_SIGN_IN_ID, SIGN_IN_GUARD_SCRIPT, SIGN_IN_PATH } from '../../contract/signInPage.ts';

/** The page of /auth/login in the built console: index.html with the sign-in form in it. */
export const SIGN_IN_PAGE_FILE = 'sign-in.html';

/** The content security policy's source for the page's one inline script. */
export const SIGN_IN_GUARD_SOURCE = `'sha256-${createHash('sha256').update(SIGN_IN_GUARD_SCRIPT).digest('base64')}'`;

const ROOT_ELEMENT = '<div id="root"></div>';
/** The stylesheets index.html only preloads for the sign-in screen (vite.config.ts) are applied at once here. */
const PRELOADED_STYLE = /<link rel="preload" as="style"/g;

/** Whether a request's URL is the address whose page carries the form (any query, never another path). */
export const isSignInPath = (url: string): boolean => url.split('?')[0] === SIGN_IN_PATH;

/** The page of /auth/login: `indexHtml` with the form's markup and its guard before the console's root. */
export function signInPageOf(indexHtml: string, markup: string): string {
  if (!indexHtml.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT}.`);
  const form = `<div id="${PRERENDERED_SIGN_IN_ID}">${markup}</div><script>${SIGN_IN_GUARD_SCRIPT}</script>`;
  return indexHtml.replace(PRELOADED_STYLE, '<link rel="stylesheet"').replace(ROOT_ELEMENT, form + ROOT_ELEMENT);
}

/**
 * Writes the built console's sign-in page: the sign-in screen rendered to HTML by its own components
 * (src/auth/signInMarkup.tsx, loaded through Vite with the build's `define`) into the built index.html.
 */
export async function writeSignInPage(root: string, outDir: string, define: Record<string, string>): Promise<void> {
  const { createServer } = await import('vite');
  const vite = await createServer({
    root,
    configFile: false,
    mode: 'production',
    define,
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false },
  });
  const restoreStorage = withEmptyStorage();
  try {
    const { signInMarkup } = (await vite.ssrLoadModule('/src/auth/signInMarkup.tsx')) as { signInMarkup(): string };
    const indexHtml = await readFile(join(outDir, 'index.html'), 'utf8');
    await writeFile(join(outDir, SIGN_IN_PAGE_FILE), signInPageOf(indexHtml, signInMarkup()));
  } finally {
    restoreStorage();
    await vite.close();
  }
}

/** The console's session store reads localStorage when loaded: an empty one, for a visitor with no session. */
function withEmptyStorage(): () => void {
  const had = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
  const empty = { getItem: () => null, setItem: () => undefined, removeItem: () => undefined, clear: () => undefined };
  Object.defineProperty(globalThis, 'localStorage', { value: empty, configurable: true, writable: true });
  return () => {
    if (had) Object.defineProperty(globalThis, 'localStorage', had);
    else Reflect.deleteProperty(globalThis, 'localStorage');
  };
}
