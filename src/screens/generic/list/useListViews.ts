import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../http/index.ts';
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

export interface ListViews {
  views: SavedView[];
  preferences: ListPreferences;
  share_roles: { id: number; name: string }[];
}

export interface ViewWrite {
  name: string;
  query: Record<string, string>;
  shared_role_id: number | null;
}

/** A list's saved views and the user's settings of it, from the server, with the changes the Views and Columns menus make. */
export function useListViews(api: string) {
  const queryClient = useQueryClient();
  const queryKey = ['list-views', api];
  const views = useQuery({
    queryKey,
    queryFn: ({ signal }) => http.get<{ data: ListViews }>(`views/${api}`, { signal, loader: false }).then((answer) => answer.data),
    staleTime: 30_000,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey });
  const onStale = (error: unknown) => {
    if ((error as { status?: number }).status === 412) toastError('This view was changed elsewhere since the list was loaded. The menu now shows the latest version; make your change again if it is still needed.');
    return refresh();
  };

  const save = useMutation({
    mutationFn: (view: ViewWrite) => http.post<{ data: SavedView; message?: string }>(`views/${api}`, view),
    onSuccess: (answer) => toastSuccess(answer.message ?? 'View saved.'),
    onSettled: refresh,
  });
  const update = useMutation({
    mutationFn: ({ view, change }: { view: SavedView; change: Partial<ViewWrite> }) =>
      http.putRecord<{ data: SavedView; message?: string }>(
        `views/${api}/${view.id}`,
        { name: view.name, query: view.query, shared_role_id: view.shared_role_id, ...change },
        { ifMatch: view.version },
      ),
    onSuccess: (answer) => toastSuccess(answer.message ?? 'View saved.'),
    onError: onStale,
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (view: SavedView) => http.deleteRecord<{ message?: string }>(`views/${api}/${view.id}`, { ifMatch: view.version }),
    onSuccess: (answer) => toastSuccess(answer.message ?? 'View deleted.'),
    onError: onStale,
    onSettled: refresh,
  });
  const setPreferences = useMutation({
    mutationFn: (change: Partial<Omit<ListPreferences, 'dropped'>>) => http.put<{ data: ListPreferences }>(`list-preferences/${api}`, change),
    // The table follows at once; the server's answer (or, on a failure, the settings as stored) replaces the guess.
    onMutate: (change) => queryClient.setQueryData<ListViews>(queryKey, (current) => (current ? { ...current, preferences: { ...current.preferences, ...change } } : current)),
    onSuccess: (answer) => queryClient.setQueryData<ListViews>(queryKey, (current) => (current ? { ...current, preferences: answer.data } : current)),
    onError: refresh,
  });
  return { views, save, update, remove, setPreferences };
}

export type UseListViewsResult = ReturnType<typeof useListViews>;
