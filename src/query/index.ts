export { queryClient } from './queryClient.ts';
