// npm run bench:hostile-files: every hostile import file posted to a real `npm start` process while a loop of list
// requests runs against it, on PGlite and PostgreSQL; prints each refusal's time and the slowest list meanwhile against
// the budgets (1 s, 200 ms) and fails when one is over. Run it on a quiet machine: it measures the server, not the load.
import { spawnSync } from 'node:child_process';

const run = spawnSync('npx', ['vitest', 'run', 'server/modules/imports/hostileFiles.test.ts'], {
  stdio: 'inherit',
  env: { ...process.env, HOSTILE_FILE_BUDGETS: 'hold' },
});
process.exit(run.status ?? 1);
