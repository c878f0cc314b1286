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

/**
 * Request options of a fetch started ahead of its screen (ScreenPrefetch): no toast for its failure (the screen that
 * shows the data says what went wrong, once) and no loading overlay over the screen being left.
 */
export const FETCHED_AHEAD = { shownByCaller: 'all', loader: false } as const;

/** How long data fetched ahead of its screen counts as fresh when the screen appears. */
const FETCHED_AHEAD_FRESH_MS = 2_000;

/**
 * A screen query's `refetchOnMount`: data fetched a moment ago (ahead of the screen) is not asked for again, unless a
 * change made since marked it out of date (a form's save invalidates its resource's lists before the list reappears).
 */
export const unlessJustFetched = (query: { state: { dataUpdatedAt: number; isInvalidated: boolean } }) =>
  query.state.isInvalidated || Date.now() - query.state.dataUpdatedAt > FETCHED_AHEAD_FRESH_MS;
