import { QueryClient } from '@tanstack/react-query';
import { sessionStore } from '../session/sessionStore.ts';

/**
 * The console's TanStack Query client. Failed calls already show an "Error" toast, so queries do not retry
 * by default (a retry would toast again); a screen that wants retries sets them itself.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

// Nothing cached for one user may be shown to the next.
sessionStore.onEnd(() => queryClient.clear());
