import { hashKey, useQuery, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { ResourceDescription } from '../../../generated/types.ts';
import { http } from '../../../http/index.ts';
import { FETCHED_AHEAD, unlessJustFetched } from '../../../query/queryClient.ts';
import { listFilters } from './listFilters.ts';
import type { ListPage } from './useListMutations.ts';
import { listApiParams, readListState } from './useListState.ts';
import { listViewsQuery } from './useListViews.ts';

/** The key of a list's page: mutations update it in place. */
export const listPageKey = (api: string, params: Record<string, string | number>) =>
  ['resource', api, 'list', params] as const;

const fetchListPage = (api: string, params: Record<string, string | number>, signal: AbortSignal, ahead = false) =>
  http.get<ListPage>(api, { params, signal, ...(ahead ? FETCHED_AHEAD : {}) });

/**
 * The page of rows a list shows. While another page loads, the one shown before stays (no flash of an empty table);
 * a page the list asked for but never showed (the plain list asked for alongside the views, replaced by the user's
 * default view) is never shown, not even for that moment.
 */
export function useListPage(
  listKey: ReturnType<typeof listPageKey>,
  { mayFetch, waiting }: { mayFetch: boolean; waiting: boolean },
) {
  const shownKey = useRef<string | null>(null);
  const [, api, , params] = listKey;
  const query = useQuery({
    queryKey: listKey,
    queryFn: ({ signal }) => fetchListPage(api, params, signal),
    placeholderData: (previous, previousQuery) =>
      previousQuery && hashKey(previousQuery.queryKey) === shownKey.current ? previous : undefined,
    enabled: mayFetch,
    refetchOnMount: unlessJustFetched,
  });
  const page = waiting ? undefined : query.data;
  const shown = page !== undefined && !query.isPlaceholderData;
  useEffect(() => {
    if (shown) shownKey.current = hashKey(listKey);
  }, [shown, listKey]);
  return { query, page };
}

/**
 * Starts loading what a list at this address shows first, before the address changes: its saved views and, unless
 * the address names a view, its first page. The list's own queries then find them on their way or there. Settles
 * when they are there; returns nothing when both were (a return visit shows them at once and refreshes them).
 */
export function prefetchList(
  queryClient: QueryClient,
  resource: ResourceDescription,
  search: URLSearchParams,
): Promise<void> | undefined {
  const { list } = resource;
  if (!list) return undefined;
  const loading: Promise<void>[] = [];
  const views = listViewsQuery(resource.api, FETCHED_AHEAD.shownByCaller);
  if (queryClient.getQueryData(views.queryKey) === undefined) loading.push(queryClient.prefetchInfiniteQuery(views));
  const state = readListState(
    search,
    list,
    listFilters(resource).flatMap((filter) => filter.keys),
  );
  if (state.viewId === null) {
    const params = listApiParams(state, new Date());
    const queryKey = listPageKey(resource.api, params);
    if (queryClient.getQueryData(queryKey) === undefined)
      loading.push(
        queryClient.prefetchQuery({
          queryKey,
          queryFn: ({ signal }) => fetchListPage(resource.api, params, signal, true),
        }),
      );
  }
  return loading.length > 0 ? Promise.all(loading).then(() => undefined) : undefined;
}
