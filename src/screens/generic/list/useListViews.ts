import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import { http, isApiError, type ShownByCaller } from '../../../http/index.ts';
import { toastError, toastSuccess } from '../../../shell/index.ts';

/** A saved view as `GET views/<list>` answers it (docs/api.md, "Saved views and list settings"). */
export interface SavedView {
  id: number;
  name: string;
  owner_name: string;
  mine: boolean;
  shared_role_id: number | null;
  shared_role_name: string | null;
  query: Record<string, string>;
  dropped: string[];
  version: number;
}

export interface ListPreferences {
  columns: string[] | null;
  default_view_id: number | null;
  dropped: string[];
}

/** One page of `GET views/<list>`. */
interface ListViewsPage {
  data: { views: SavedView[]; preferences: ListPreferences; share_roles: { id: number; name: string }[] };
  meta: { total: number; page: number; page_size: number };
}

/** The pages loaded so far as one: their views, in order, and every view the user may open (`total`). */
export interface ListViews {
  views: SavedView[];
  total: number;
  preferences: ListPreferences;
  share_roles: { id: number; name: string }[];
}

export interface ViewWrite {
  name: string;
  query: Record<string, string>;
  shared_role_id: number | null;
}

/** The query of a list's saved views, a page at a time: for the Views menu, and to start it before the list shows. */
export function listViewsQuery(api: string, shownByCaller?: ShownByCaller) {
  return infiniteQueryOptions({
    queryKey: ['list-views', api],
    queryFn: ({ pageParam, signal }) =>
      http.get<ListViewsPage>(`views/${api}`, { params: { _page: pageParam }, signal, loader: false, shownByCaller }),
    initialPageParam: 1,
    getNextPageParam: ({ meta }: ListViewsPage) =>
      meta.page * meta.page_size < meta.total ? meta.page + 1 : undefined,
    staleTime: 30_000,
  });
}

/** The settings of the first page, the one the list's settings are read from, changed. */
function withPreferences(
  current: InfiniteData<ListViewsPage> | undefined,
  change: (preferences: ListPreferences) => ListPreferences,
) {
  if (!current) return current;
  const [first, ...rest] = current.pages;
  return first
    ? {
        ...current,
        pages: [{ ...first, data: { ...first.data, preferences: change(first.data.preferences) } }, ...rest],
      }
    : current;
}

/** What a refused write says about its fields (a limit reached, a name too long), as one sentence to show. */
export function refusalOf(error: unknown): string | null {
  if (!isApiError(error) || error.status !== 400) return null;
  const fields = Object.values(error.fieldErrors);
  return fields.length > 0 ? fields.join(' ') : error.message;
}

/**
 * A list's saved views and the user's settings of it, from the server, with the changes the Views and Columns menus
 * make. The views come a page at a time (docs/api.md, "Saved views and list settings"): the first page holds every
 * view a user may open at the limits of their own and their role's views; `loadMore` asks for the next.
 */
export function useListViews(api: string) {
  const queryClient = useQueryClient();
  const { queryKey } = listViewsQuery(api);
  const views = useInfiniteQuery({
    ...listViewsQuery(api),
    select: (data): ListViews | undefined => {
      const first = data.pages[0];
      // An answer without the user's settings (a request the session's end cut short) counts as none yet.
      if (!first?.data?.preferences) return undefined;
      return {
        views: data.pages.flatMap((page) => page.data.views),
        total: data.pages.at(-1)!.meta.total,
        preferences: first.data.preferences,
        share_roles: first.data.share_roles,
      };
    },
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey });
  const onStale = (error: unknown) => {
    if (isApiError(error) && error.status === 412)
      toastError(
        'This view was changed elsewhere since the list was loaded. The menu now shows the latest version; make your change again if it is still needed.',
      );
    return refresh();
  };
  const onRefused = (error: unknown) => {
    const refusal = refusalOf(error);
    if (refusal) toastError(refusal);
    return onStale(error);
  };

  const save = useMutation({
    // The form that saves says why a save was refused, beside what was typed.
    mutationFn: (view: ViewWrite) =>
      http.post<{ data: SavedView; message?: string }>(`views/${api}`, view, { shownByCaller: [400] }),
    onSuccess: (answer) => toastSuccess(answer.message ?? 'View saved.'),
    onSettled: refresh,
  });
  const update = useMutation({
    mutationFn: ({ view, change }: { view: SavedView; change: Partial<ViewWrite> }) =>
      http.putRecord<{ data: SavedView; message?: string }>(
        `views/${api}/${view.id}`,
        { name: view.name, query: view.query, shared_role_id: view.shared_role_id, ...change },
        { ifMatch: view.version, shownByCaller: [400] },
      ),
    onSuccess: (answer) => toastSuccess(answer.message ?? 'View saved.'),
    onError: onRefused,
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (view: SavedView) =>
      http.deleteRecord<{ message?: string }>(`views/${api}/${view.id}`, { ifMatch: view.version }),
    onSuccess: (answer) => toastSuccess(answer.message ?? 'View deleted.'),
    onError: onStale,
    onSettled: refresh,
  });
  const setPreferences = useMutation({
    mutationFn: (change: Partial<Omit<ListPreferences, 'dropped'>>) =>
      http.put<{ data: ListPreferences }>(`list-preferences/${api}`, change),
    // The table follows at once; the server's answer (or, on a failure, the settings as stored) replaces the guess.
    onMutate: (change) =>
      queryClient.setQueryData<InfiniteData<ListViewsPage>>(queryKey, (current) =>
        withPreferences(current, (preferences) => ({ ...preferences, ...change })),
      ),
    onSuccess: (answer) =>
      queryClient.setQueryData<InfiniteData<ListViewsPage>>(queryKey, (current) =>
        withPreferences(current, () => answer.data),
      ),
    onError: refresh,
  });
  return { views, save, update, remove, setPreferences };
}

/**
 * One view by its id, for a view the address or the user's default names that the pages loaded so far do not hold;
 * null when the user may not open it (deleted, or no longer shared with their role).
 */
export function useSavedView(api: string, id: number | null, enabled: boolean) {
  return useQuery({
    queryKey: ['list-views', api, 'view', id],
    queryFn: ({ signal }) =>
      http.get<{ data: SavedView }>(`views/${api}/${id}`, { signal, loader: false, shownByCaller: [404] }).then(
        (answer) => answer.data,
        (error: unknown) => {
          if (isApiError(error) && error.status === 404) return null;
          throw error;
        },
      ),
    enabled: enabled && id !== null,
    staleTime: 30_000,
  });
}

export type UseListViewsResult = ReturnType<typeof useListViews>;
