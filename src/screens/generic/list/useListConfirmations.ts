import { useCallback, useState, type RefObject } from 'react';
import type { ListDescription, ResourceDescription } from '../../../generated/types.ts';
import { formatValue, type Row } from '../../shared/formatValue.ts';
import type { ListMutations } from './useListMutations.ts';
import type { UseListSelectionResult } from './useListSelection.ts';

type Id = string | number;

/** A deactivation waiting for its confirmation: one row (`name` and `row`) or the selected rows (`name` null). */
export interface PendingDeactivation {
  ids: Id[];
  name: string | null;
  row?: Row;
}

export interface UseListConfirmationsOptions {
  resource: ResourceDescription;
  list: ListDescription;
  mutations: ListMutations;
  selection: UseListSelectionResult;
  /** Where the focus goes back once a dialog closes. */
  tableRegion: RefObject<HTMLDivElement | null>;
}

export type UseListConfirmationsResult = ReturnType<typeof useListConfirmations>;

/**
 * The list's writes that ask first: deleting a row, deleting the selected rows, and deactivating (a user who then
 * cannot sign in, a record hidden from pickers), one row or the selected ones. Activating is harmless and asks nothing.
 */
export function useListConfirmations({
  resource,
  list,
  mutations,
  selection,
  tableRegion,
}: UseListConfirmationsOptions) {
  const { toggle, remove, bulkRemove, bulkStatus } = mutations;
  const [pendingDelete, setPendingDelete] = useState<Row | null>(null);
  const [pendingBulkDelete, setPendingBulkDelete] = useState(false);
  const [pendingDeactivation, setPendingDeactivation] = useState<PendingDeactivation | null>(null);
  const firstField = resource.entity?.fields.find((field) => field.name === list.columns[0]);
  const focusTable = () => tableRegion.current?.focus();

  const confirmDelete = async () => {
    if (!pendingDelete) return;
    await remove.mutateAsync(pendingDelete).catch(() => undefined);
    setPendingDelete(null);
    focusTable();
  };
  const confirmBulkDelete = async () => {
    await bulkRemove.mutateAsync(selection.selectedIds).catch(() => undefined);
    setPendingBulkDelete(false);
    selection.clear();
    focusTable();
  };
  const confirmDeactivation = async () => {
    if (!pendingDeactivation) return;
    const { ids, row } = pendingDeactivation;
    if (row) toggle.mutate({ row, isActive: false });
    else await bulkStatus.mutateAsync({ ids, isActive: false }).then(selection.clear, () => undefined);
    setPendingDeactivation(null);
    focusTable();
  };
  const { mutate: toggleMutate } = toggle;
  const listLabelColumn = list.columns[0];
  // Stable while the list stays the same: the table's memoised rows take it.
  const toggleActive = useCallback(
    (row: Row, isActive: boolean) => {
      if (isActive) toggleMutate({ row, isActive });
      else
        setPendingDeactivation({
          ids: [row.id as Id],
          name: formatValue(firstField, row, listLabelColumn),
          row,
        });
    },
    [toggleMutate, firstField, listLabelColumn],
  );

  return {
    /** The row whose delete waits for its confirmation. */
    pendingDelete,
    /** Asks to delete a row; stable (a state setter), as the table's memoised rows take it. */
    askDelete: setPendingDelete,
    cancelDelete: () => setPendingDelete(null),
    confirmDelete,
    deleting: remove.isPending,
    pendingBulkDelete,
    askBulkDelete: () => setPendingBulkDelete(true),
    cancelBulkDelete: () => setPendingBulkDelete(false),
    confirmBulkDelete,
    bulkDeleting: bulkRemove.isPending,
    pendingDeactivation,
    askBulkDeactivation: () => setPendingDeactivation({ ids: selection.selectedIds, name: null }),
    cancelDeactivation: () => setPendingDeactivation(null),
    confirmDeactivation,
    deactivating: bulkStatus.isPending,
    /** A row's active switch: activates at once, asks before deactivating. */
    toggleActive,
    /** The first column's value of a row, which names it in the dialogs. */
    labelOf: (row: Row) => formatValue(firstField, row, listLabelColumn),
  };
}
