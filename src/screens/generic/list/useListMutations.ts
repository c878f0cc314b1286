import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { http, isApiError } from '../../../http/index.ts';
import { toastError, toastSuccess } from '../../../shell/index.ts';
import type { Row } from '../../shared/formatValue.ts';
import type { PageOf } from './PagedRowsTable.tsx';

export type ListPage = PageOf<Row>;

type Id = string | number;

const PRECONDITION_FAILED = 412;
const RESTORE_REFUSALS = [404, 409];

/**
 * The list's writes: the active toggle is optimistic (the row flips at once and flips back if the
 * server refuses), deletes and bulk actions refetch the list when done. A row's toggle and delete apply only to the
 * version the list showed; when someone changed the record since, one toast says so and the list refetches.
 * A delete that moves records to the trash (`restorable`) offers Undo in its toast, which restores them.
 */
export function useListMutations(
  api: string,
  listKey: QueryKey,
  singular: string,
  { restorable = false }: { restorable?: boolean } = {},
) {
  const queryClient = useQueryClient();
  const refetch = () => queryClient.invalidateQueries({ queryKey: ['resource', api] });
  const announce = (body: { message?: string } | undefined, fallback: string) =>
    toastSuccess(body?.message ?? fallback);
  const restore = async (ids: Id[]) => {
    // One record's refusal is the HTTP layer's usual toast; several records' refusals are summed up in one.
    const shownByCaller = ids.length > 1 ? RESTORE_REFUSALS : [];
    const results = await Promise.allSettled(
      ids.map((id) => http.post<{ message?: string }>(`${api}/${String(id)}/restore`, undefined, { shownByCaller })),
    );
    const restored = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const refused = results.flatMap((result) =>
      result.status === 'rejected' && isApiError(result.reason) && shownByCaller.includes(result.reason.status)
        ? [result.reason.message]
        : [],
    );
    if (restored.length > 0)
      announce(
        ids.length === 1 ? restored[0] : undefined,
        ids.length === 1 ? 'Restored.' : `${restored.length} restored.`,
      );
    if (refused.length > 0) toastError(`${refused.length} could not be restored: ${refused[0]}`);
    await refetch();
  };
  const announceDelete = (body: { message?: string } | undefined, fallback: string, ids: Id[]) =>
    toastSuccess(
      body?.message ?? fallback,
      undefined,
      restorable ? { action: { label: 'Undo', onClick: () => void restore(ids), key: 'z' } } : {},
    );
  const explainStale = (error: unknown) => {
    if (isApiError(error) && error.status === PRECONDITION_FAILED) {
      toastError(
        `This ${singular.toLowerCase()} was changed by someone else since the list was loaded. The list now shows the latest version; make your change again if it is still needed.`,
      );
    }
  };

  const toggle = useMutation({
    mutationFn: ({ row, isActive }: { row: Row; isActive: boolean }) =>
      http.patchRecord<{ data?: Row; message?: string }>(
        `${api}/${String(row.id)}/status`,
        { is_active: isActive },
        { ifMatch: Number(row.version) },
      ),
    onMutate: async ({ row: { id }, isActive }) => {
      await queryClient.cancelQueries({ queryKey: listKey });
      const previous = queryClient.getQueryData<ListPage>(listKey);
      if (previous) {
        queryClient.setQueryData<ListPage>(listKey, {
          ...previous,
          data: previous.data.map((row) => (row.id === id ? { ...row, is_active: isActive } : row)),
        });
      }
      return { previous };
    },
    onError: (error, _variables, context) => {
      if (context?.previous) queryClient.setQueryData(listKey, context.previous);
      explainStale(error);
    },
    onSuccess: (body, { row, isActive }) => {
      // The row takes the record as saved, new version included, so a next toggle does not wait for the refetch.
      if (body.data)
        queryClient.setQueryData<ListPage>(
          listKey,
          (page) =>
            page && { ...page, data: page.data.map((each) => (each.id === row.id ? { ...each, ...body.data } : each)) },
        );
      announce(body, isActive ? 'Activated.' : 'Deactivated.');
    },
    onSettled: refetch,
  });

  const remove = useMutation({
    mutationFn: (row: Row) =>
      http.deleteRecord<{ message?: string }>(`${api}/${String(row.id)}`, { ifMatch: Number(row.version) }),
    onSuccess: (body, row) => announceDelete(body, 'Deleted.', [row.id as Id]),
    onError: explainStale,
    onSettled: refetch,
  });

  const bulkRemove = useMutation({
    mutationFn: (ids: Id[]) => http.deleteWithBody<{ message?: string }>(api, { ids }),
    onSuccess: (body, ids) => announceDelete(body, `${ids.length} deleted.`, ids),
    onSettled: refetch,
  });

  const bulkStatus = useMutation({
    mutationFn: ({ ids, isActive }: { ids: Id[]; isActive: boolean }) =>
      http.patch<{ message?: string }>(`${api}/status`, { ids, is_active: isActive }),
    onSuccess: (body, { ids, isActive }) => announce(body, `${ids.length} ${isActive ? 'activated' : 'deactivated'}.`),
    onSettled: refetch,
  });

  return { toggle, remove, bulkRemove, bulkStatus };
}

export type ListMutations = ReturnType<typeof useListMutations>;
