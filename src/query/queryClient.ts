import { QueryClient } from '@tanstack/react-query';
import { sessionStore } from '../session/sessionStore.ts';

/**
 * The console's TanStack Query client. Failed calls already show an "Error" toast, so queries do not retry
 * by default (a retry would toast again); a screen that wants retries sets them itself. Network mode
 * "always": offline, a call must still be made and fail with "No Internet Connection." (ERR-04) rather than
 * wait silently, paused, with the form stuck on "Saving…".
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, networkMode: 'always' },
    mutations: { retry: false, networkMode: 'always' },
  },
});

// Nothing cached for one user may be shown to the next.
sessionStore.onEnd(() => queryClient.clear());
