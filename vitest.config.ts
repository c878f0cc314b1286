import react from '@vitejs/plugin-react';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineConfig } from 'vitest/config';

/** The integration project's origin port; INTEGRATION_PORT moves it when two checkouts run their tests at once. */
const integrationPort = process.env.INTEGRATION_PORT ?? '18181';
/** The console under test is the development one, with its mailbox screen (vite.config.ts); a copy per project. */
const consoleDefines = () => ({ __DEV_MAILBOX__: 'true' });

/**
 * Packages with a browser build beside their Node one (package.json `browser`): the console runs the browser build, so
 * its tests do too. Vitest hands packages to Node, which reads `main` (tus-js-client's Node build takes only Buffers
 * and streams, not a File); these are passed through Vite instead, aliased to the file their `browser` field maps their
 * `module` entry to, as the console's build resolves them. Only these: other packages resolve as before.
 */
const BROWSER_BUILT = ['tus-js-client'];
const require = createRequire(import.meta.url);
function browserBuild(name: string): string {
  const manifestPath = require.resolve(`${name}/package.json`);
  const manifest = require(manifestPath) as { module: string; browser?: Record<string, string> };
  return join(dirname(manifestPath), manifest.browser?.[`./${manifest.module}`] ?? manifest.module);
}
const browserBuilds = { alias: Object.fromEntries(BROWSER_BUILT.map((name) => [name, browserBuild(name)])) };

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        define: consoleDefines(),
        resolve: browserBuilds,
        test: {
          name: 'console',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          // Hang detectors, not speed checks: a screen test on a machine loaded several times over takes tens of seconds.
          testTimeout: 90_000,
          setupFiles: ['src/test/setup.ts'],
          server: { deps: { inline: BROWSER_BUILT } },
        },
      },
      {
        // Screens against the real reference API: the test starts the server on this origin's port,
        // so the console's requests are same-origin, as in production.
        plugins: [react()],
        define: consoleDefines(),
        resolve: browserBuilds,
        test: {
          name: 'integration',
          environment: 'jsdom',
          environmentOptions: { jsdom: { url: `http://127.0.0.1:${integrationPort}/` } },
          include: ['tests/integration/**/*.test.{ts,tsx}'],
          setupFiles: ['src/test/setup.ts'],
          server: { deps: { inline: BROWSER_BUILT } },
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'validation/**/*.test.ts',
            'codegen/**/*.test.ts',
            'cli/**/*.test.ts',
            'server/**/*.test.ts',
            'tests/**/*.test.ts',
          ],
          exclude: ['tests/e2e/**', 'tests/integration/**', 'node_modules/**'],
          // Hang detectors, not speed checks: they hold with the machine loaded several times over.
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
