// npm run bench:trade-report: the uploaded-data report on 50M trade records (PostgreSQL) and 2M (PGlite); see bench.ts.
import { register } from 'tsx/esm/api';

register();
await import('./bench.ts');
