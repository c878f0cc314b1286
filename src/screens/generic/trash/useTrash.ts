import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EntriesPageMeta, TrashEntryAnswer } from '../../../../contract/audit.ts';
import { http } from '../../../http/index.ts';
import { toastSuccess } from '../../../shell/index.ts';

interface TrashPage {
  data: TrashEntryAnswer[];
  meta: EntriesPageMeta;
}

/**
 * A resource's trash, a page at a time (GET `<api>/trash`), and what can be done with a deleted record: restore it
 * (POST `<api>/:id/restore`) or delete it for good (DELETE `<api>/:id/permanent`). Either reloads the resource's
 * queries, its list included.
 */
export function useTrash(api: string, page: number, pageSize: number) {
  const queryClient = useQueryClient();
  const reload = () => queryClient.invalidateQueries({ queryKey: ['resource', api] });
  const announce = (body: { message?: string }, fallback: string) => toastSuccess(body.message ?? fallback);
  const entries = useQuery({
    queryKey: ['resource', api, 'trash', page, pageSize],
    queryFn: ({ signal }) =>
      http.get<TrashPage>(`${api}/trash`, { params: { _page: page, _page_size: pageSize }, signal }),
    placeholderData: keepPreviousData,
  });
  const restore = useMutation({
    mutationFn: (entry: TrashEntryAnswer) => http.post<{ message?: string }>(`${api}/${entry.id}/restore`),
    onSuccess: (body) => announce(body, 'Restored.'),
    onSettled: reload,
  });
  const purge = useMutation({
    mutationFn: (entry: TrashEntryAnswer) => http.delete<{ message?: string }>(`${api}/${entry.id}/permanent`),
    onSuccess: (body) => announce(body, 'Deleted permanently.'),
    onSettled: reload,
  });
  return { entries, restore, purge };
}
