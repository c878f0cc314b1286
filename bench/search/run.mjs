// npm run bench:search: Go anywhere's GET search on PGlite and PostgreSQL (see bench.ts for the budgets).
import { register } from 'tsx/esm/api';

register();
await import('./bench.ts');
