// npm run bench:import: a 100,000-row file imported (dry run, then apply) through the real server, PGlite and PostgreSQL (bench.ts).
import { register } from 'tsx/esm/api';

register();
await import('./bench.ts');
