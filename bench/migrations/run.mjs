// npm run bench:migrations: planning and applying manifest migrations on 1,000,000 rows on PostgreSQL (bench.ts).
import { register } from 'tsx/esm/api';

register();
await import('./bench.ts');
