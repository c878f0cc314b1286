import { defineConfig } from 'vitest/config';

/**
 * The browser journeys. Started by tests/e2e/run.mjs, which passes BASE_URL and the control endpoint; one file
 * after another (they share one API), each test in a fresh Chromium context.
 */
export default defineConfig({
  test: {
    name: 'e2e',
    root: new URL('../..', import.meta.url).pathname,
    include: ['tests/e2e/journeys/**/*.e2e.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 90_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    // expect.poll waits for a condition: a screen on a busy machine may take seconds (a chunk loaded, a page fetched).
    expect: { poll: { timeout: 15_000, interval: 50 } },
    reporters: ['verbose'],
    sequence: { shuffle: false },
  },
});
