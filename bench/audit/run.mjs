// npm run bench:audit: the audit screen's filtered pages on 1,000,000 entries, and the write path with history on and off (see bench.ts).
import { register } from 'tsx/esm/api';

register();
await import('./bench.ts');
