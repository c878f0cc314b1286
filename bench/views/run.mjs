// npm run bench:views: the list page of a saved view of three filters on 100,000 subscribers (see bench.ts for the budget).
import { register } from 'tsx/esm/api';

register();
await import('./bench.ts');
