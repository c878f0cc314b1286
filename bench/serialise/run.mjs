// npm run bench:serialise: a page of 100 subscribers written by JSON.stringify and by the route's own serialiser (see bench.ts).
import { register } from 'tsx/esm/api';

register();
await import('./bench.ts');
