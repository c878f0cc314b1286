// npm run bench:bulk: a bulk change of 100,000 matching vouchers through the real server, PostgreSQL and PGlite (bench.ts).
import { register } from 'tsx/esm/api';

register();
await import('./bench.ts');
