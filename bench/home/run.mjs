// npm run bench:home: GET home for each demo role on 100,000 subscribers on PostgreSQL (see bench.ts for the budget).
import { register } from 'tsx/esm/api';

register();
await import('./bench.ts');
