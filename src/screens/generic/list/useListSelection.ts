import type { RowSelectionState } from '@tanstack/react-table';
import { useState } from 'react';
import type { Row } from '../../shared/formatValue.ts';

type Id = string | number;

export interface UseListSelectionResult {
  /** The ticked rows of the page shown, by id (the table's own selection state). */
  selection: RowSelectionState;
  setSelection: (selection: RowSelectionState) => void;
  /** The ticked rows' ids, typed as the rows hold them. */
  selectedIds: Id[];
  /** The bulk actions apply to every record matching the search and filters, not only to the ticked rows. */
  allMatching: boolean;
  /** Every row of the page shown is ticked. */
  pageSelected: boolean;
  selectAllMatching: () => void;
  clear: () => void;
}

/**
 * What a list's bulk actions apply to: the rows ticked on the page shown or, once chosen, all records matching the
 * search and filters (`params`). "All matching" holds for the search and filters it was chosen on; another search
 * or filter ends it. The list clears the selection when it moves to another page.
 */
export function useListSelection(rows: Row[], params: Record<string, string | number>): UseListSelectionResult {
  const [selection, setSelection] = useState<RowSelectionState>({});
  const matchingKey = JSON.stringify({ ...params, _page: undefined });
  const [matchingFor, setMatchingFor] = useState<string | null>(null);
  const selectedIds = Object.keys(selection)
    .filter((id) => selection[id])
    .map((id) => rows.find((row) => String(row.id) === id)?.id ?? id) as Id[];
  return {
    selection,
    setSelection,
    selectedIds,
    allMatching: matchingFor === matchingKey && selectedIds.length > 0,
    pageSelected: rows.length > 0 && selectedIds.length === rows.length,
    selectAllMatching: () => setMatchingFor(matchingKey),
    clear: () => {
      setSelection({});
      setMatchingFor(null);
    },
  };
}
