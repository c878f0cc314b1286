import type { ResourceDescription } from '../../../generated/types.ts';
import type { ResourceAccess } from '../../shared/useResourceAccess.ts';
import { BulkAllMatching } from './BulkAllMatching.tsx';
import type { UseListSelectionResult } from './useListSelection.ts';

export interface SelectionBarProps {
  resource: ResourceDescription;
  access: ResourceAccess;
  selection: UseListSelectionResult;
  /** Records matching the search and filters, and rows on the page shown. */
  total: number;
  pageRows: number;
  params: Record<string, string | number>;
  /** The user may act on the ticked rows (activate, deactivate, delete); else only on all matching. */
  selectionActions: boolean;
  onActivate: () => void;
  onDeactivate: () => void;
  onDelete: () => void;
  onRefetch: () => Promise<unknown>;
}

/** The bar of bulk actions over a list while rows are selected: on the ticked rows, or on all matching. */
export function SelectionBar({
  resource,
  access,
  selection,
  total,
  pageRows,
  params,
  selectionActions,
  onActivate,
  onDeactivate,
  onDelete,
  onRefetch,
}: SelectionBarProps) {
  if (selection.selectedIds.length === 0) return null;
  return (
    <div className="bulk-bar" role="region" aria-label="Bulk actions">
      {selection.allMatching ? (
        <BulkAllMatching
          resource={resource}
          access={access}
          total={total}
          params={params}
          onCancel={selection.clear}
          onStale={() => void onRefetch()}
          onDone={() => void onRefetch().then(selection.clear)}
        />
      ) : (
        <>
          <span>{selection.selectedIds.length} selected</span>
          {((selection.pageSelected && total > pageRows) || !selectionActions) && (
            <button type="button" className="link-button" onClick={selection.selectAllMatching}>
              Select all {total.toLocaleString('en')} matching
            </button>
          )}
          {access.ACTIVE_INACTIVE && (
            <>
              <button type="button" className="button" onClick={onActivate}>
                Activate selected
              </button>
              <button type="button" className="button" onClick={onDeactivate}>
                Deactivate selected
              </button>
            </>
          )}
          {access.delete && (
            <button type="button" className="button button--danger" onClick={onDelete}>
              Delete selected
            </button>
          )}
          <button type="button" className="link-button" onClick={selection.clear}>
            Clear selection
          </button>
        </>
      )}
    </div>
  );
}
