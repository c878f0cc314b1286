// npm run bench:scale: reads through one instance and through two on one PostgreSQL (see bench.ts for the expectation).
import { register } from 'tsx/esm/api';

register();
await import('./bench.ts');
