// npm run bench:trade-import: a country's month of trade records (1,000,000 rows, ~164 MB) imported from the stored
// file to the upload published, against a bare COPY of the same file, on PostgreSQL and PGlite (bench.ts).
import { register } from 'tsx/esm/api';

register();
await import('./bench.ts');
