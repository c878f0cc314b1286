import { register } from 'tsx/esm/api';

register();
await import('./backup.ts');
