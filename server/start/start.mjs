// npm start: runs the TypeScript server through tsx (no separate compile step).
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
