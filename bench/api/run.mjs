// npm run bench:api: the API under load on PGlite and PostgreSQL (see bench.ts for the budgets).
import { register } from 'tsx/esm/api';

register();
await import('./bench.ts');
