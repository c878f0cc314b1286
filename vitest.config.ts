import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/** The integration project's origin port; INTEGRATION_PORT moves it when two checkouts run their tests at once. */
const integrationPort = process.env.INTEGRATION_PORT ?? '18181';
/** The console under test is the development one, with its mailbox screen (vite.config.ts); a copy per project. */
const consoleDefines = () => ({ __DEV_MAILBOX__: 'true' });

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        define: consoleDefines(),
        test: {
          name: 'console',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/test/setup.ts'],
        },
      },
      {
        // Screens against the real reference API: the test starts the server on this origin's port,
        // so the console's requests are same-origin, as in production.
        plugins: [react()],
        define: consoleDefines(),
        test: {
          name: 'integration',
          environment: 'jsdom',
          environmentOptions: { jsdom: { url: `http://127.0.0.1:${integrationPort}/` } },
          include: ['tests/integration/**/*.test.{ts,tsx}'],
          setupFiles: ['src/test/setup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['validation/**/*.test.ts', 'codegen/**/*.test.ts', 'cli/**/*.test.ts', 'server/**/*.test.ts', 'tests/**/*.test.ts'],
          exclude: ['tests/e2e/**', 'tests/integration/**', 'node_modules/**'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
