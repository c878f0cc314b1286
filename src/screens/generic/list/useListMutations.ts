import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { http } from '../../../http/index.ts';
import { toastSuccess } from '../../../shell/index.ts';
import type { Row } from '../../shared/formatValue.ts';

export interface ListPage {
  data: Row[];
  meta: { total: number; page: number; page_size: number };
}

type Id = string | number;

/**
 * The list's writes: the active toggle is optimistic (the row flips at once and flips back if the
 * server refuses), deletes and bulk actions refetch the list when done.
 */
export function useListMutations(api: string, listKey: QueryKey) {
  const queryClient = useQueryClient();
  const refetch = () => queryClient.invalidateQueries({ queryKey: ['resource', api] });
  const announce = (body: { message?: string } | undefined, fallback: string) => toastSuccess(body?.message ?? fallback);

  const toggle = useMutation({
    mutationFn: ({ id, isActive }: { id: Id; isActive: boolean }) => http.patch<{ message?: string }>(`${api}/${id}/status`, { is_active: isActive }),
    onMutate: async ({ id, isActive }) => {
      await queryClient.cancelQueries({ queryKey: listKey });
      const previous = queryClient.getQueryData<ListPage>(listKey);
      if (previous) {
        queryClient.setQueryData<ListPage>(listKey, { ...previous, data: previous.data.map((row) => (row.id === id ? { ...row, is_active: isActive } : row)) });
      }
      return { previous };
    },
    onError: (_error, _variables, context) => {
      if (context?.previous) queryClient.setQueryData(listKey, context.previous);
    },
    onSuccess: (body, { isActive }) => announce(body, isActive ? 'Activated.' : 'Deactivated.'),
    onSettled: refetch,
  });

  const remove = useMutation({
    mutationFn: (id: Id) => http.delete<{ message?: string }>(`${api}/${id}`),
    onSuccess: (body) => announce(body, 'Deleted.'),
    onSettled: refetch,
  });

  const bulkRemove = useMutation({
    mutationFn: (ids: Id[]) => http.deleteWithBody<{ message?: string }>(api, { ids }),
    onSuccess: (body, ids) => announce(body, `${ids.length} deleted.`),
    onSettled: refetch,
  });

  const bulkStatus = useMutation({
    mutationFn: ({ ids, isActive }: { ids: Id[]; isActive: boolean }) => http.patch<{ message?: string }>(`${api}/status`, { ids, is_active: isActive }),
    onSuccess: (body, { ids, isActive }) => announce(body, `${ids.length} ${isActive ? 'activated' : 'deactivated'}.`),
    onSettled: refetch,
  });

  return { toggle, remove, bulkRemove, bulkStatus };
}
