import type { RowSelectionState } from '@tanstack/react-table';
import { useCallback, useMemo, useRef, useState } from 'react';
import { trashPath } from '../../../contract/trashPath.ts';
import { queryClient } from '../../query/queryClient.ts';
import type { ScreenPrefetch, ScreenProps } from '../ScreenProps.ts';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { formatValue, type Row } from '../shared/formatValue.ts';
import { QueryState } from '../shared/QueryState.tsx';
import { ScreenHeading } from '../shared/ScreenHeading.tsx';
import { useResourceAccess } from '../shared/useResourceAccess.ts';
import { BulkAllMatching } from './list/BulkAllMatching.tsx';
import { ListHeadingActions } from './list/ListHeadingActions.tsx';
import { listFilters } from './list/listFilters.ts';
import { Pagination } from './list/Pagination.tsx';
import { useListCells } from './list/listCells.ts';
import { ResourceTable } from './list/ResourceTable.tsx';
import { ListToolbar } from './list/ListToolbar.tsx';
import { ExportProgress } from './list/ExportProgress.tsx';
import { useExport } from './list/useExport.ts';
import { useListMutations } from './list/useListMutations.ts';
import { useListCustomisation } from './list/useListCustomisation.ts';
import { listPageKey, prefetchList, useListPage } from './list/useListPage.ts';
import { useListState } from './list/useListState.ts';
import '../screens.css';

/** The list of any resource, from its manifest description alone. */
/** A list's views and first page load with the move to it (see ScreenPrefetch). */
export const prefetch: ScreenPrefetch = (resource, search) => prefetchList(queryClient, resource, search);

export default function ListScreen({ resource }: ScreenProps) {
  const list = resource.list;
  if (!list) {
    return (
      <section className="screen" aria-labelledby="screen-title">
        <ScreenHeading>{resource.label}</ScreenHeading>
        <p>This module has no list.</p>
      </section>
    );
  }
  return <ResourceList resource={resource} list={list} />;
}

function ResourceList({
  resource,
  list,
}: {
  resource: ScreenProps['resource'];
  list: NonNullable<ScreenProps['resource']['list']>;
}) {
  const filters = useMemo(() => listFilters(resource), [resource]);
  const filterKeys = useMemo(() => filters.flatMap((filter) => filter.keys), [filters]);
  const state = useListState(list, filterKeys);
  const customisation = useListCustomisation(resource, list, state);
  const access = useResourceAccess(resource);
  const listKey = useMemo(() => listPageKey(resource.api, state.apiParams), [resource.api, state.apiParams]);
  const { query, page } = useListPage(listKey, customisation);
  const trash = resource.entity?.softDelete && resource.routes.view ? trashPath(resource.routes.view) : null;
  const { toggle, remove, bulkRemove, bulkStatus } = useListMutations(resource.api, listKey, resource.singular, {
    restorable: trash !== null,
  });
  const { progress, exportCsv } = useExport(resource.api);
  const exporting = progress !== null;
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [pendingDelete, setPendingDelete] = useState<Row | null>(null);
  const [pendingBulkDelete, setPendingBulkDelete] = useState(false);
  const [pendingDeactivation, setPendingDeactivation] = useState<{
    ids: (string | number)[];
    name: string | null;
    row?: Row;
  } | null>(null);
  const tableRegion = useRef<HTMLDivElement>(null);
  // "All matching" holds for the search and filters it was chosen on; another search or filter ends it.
  const matchingKey = JSON.stringify({ ...state.apiParams, _page: undefined });
  const [matchingFor, setMatchingFor] = useState<string | null>(null);

  const rows = useMemo(() => page?.data ?? [], [page]);
  const renderCell = useListCells(resource, rows, listKey);
  const total = page?.meta.total ?? 0;
  const selectedIds = Object.keys(selection)
    .filter((id) => selection[id])
    .map((id) => rows.find((row) => String(row.id) === id)?.id ?? id) as (string | number)[];
  // Rows are selectable only for a bulk action this user may take: on the selection, or setting a field on all matching.
  const selectionActions = access.delete || access.ACTIVE_INACTIVE;
  const selectable = selectionActions || (access.edit && list.bulkEdit.length > 0);
  const allMatching = matchingFor === matchingKey && selectedIds.length > 0;
  const pageSelected = rows.length > 0 && selectedIds.length === rows.length;
  const filtering = state.search !== '' || Object.keys(state.filters).length > 0;
  const firstField = resource.entity?.fields.find((field) => field.name === list.columns[0]);
  const afterDelete = trash ? 'You can restore it from the trash.' : 'This cannot be undone.';
  const clearSelection = () => {
    setSelection({});
    setMatchingFor(null);
  };

  const confirmDelete = async () => {
    if (!pendingDelete) return;
    await remove.mutateAsync(pendingDelete).catch(() => undefined);
    setPendingDelete(null);
    tableRegion.current?.focus();
  };
  const confirmBulkDelete = async () => {
    await bulkRemove.mutateAsync(selectedIds).catch(() => undefined);
    setPendingBulkDelete(false);
    clearSelection();
    tableRegion.current?.focus();
  };
  const confirmDeactivation = async () => {
    if (!pendingDeactivation) return;
    const { ids, row } = pendingDeactivation;
    if (row) toggle.mutate({ row, isActive: false });
    else await bulkStatus.mutateAsync({ ids, isActive: false }).then(clearSelection, () => undefined);
    setPendingDeactivation(null);
    tableRegion.current?.focus();
  };
  const { mutate: toggleMutate } = toggle;
  const listLabelColumn = list.columns[0];
  const toggleActive = useCallback(
    (row: Row, isActive: boolean) => {
      // Activating is harmless; deactivating (a user who then cannot sign in, a record hidden from pickers) asks first.
      if (isActive) toggleMutate({ row, isActive });
      else
        setPendingDeactivation({
          ids: [row.id as string | number],
          name: formatValue(firstField, row, listLabelColumn),
          row,
        });
    },
    [toggleMutate, firstField, listLabelColumn],
  );

  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenHeading
        actions={
          <ListHeadingActions
            resource={resource}
            access={access}
            trash={trash}
            exporting={exporting}
            onExport={() => exportCsv(state.apiParams, customisation.shown, `${resource.api.replace(/\//g, '-')}.csv`)}
            refreshing={query.isFetching}
            onRefresh={() => void query.refetch()}
          />
        }
      >
        {resource.label}
      </ScreenHeading>
      <ExportProgress progress={progress} />

      <ListToolbar resource={resource} filters={filters} state={state} customisation={customisation} />
      {customisation.notice && (
        <div role="status" className="list-notice">
          <span>{customisation.notice}</span>
          <button type="button" className="link-button" onClick={customisation.dismissNotice}>
            Dismiss
          </button>
        </div>
      )}

      {selectable && selectedIds.length > 0 && (
        <div className="bulk-bar" role="region" aria-label="Bulk actions">
          {allMatching ? (
            <BulkAllMatching
              resource={resource}
              access={access}
              total={total}
              params={state.apiParams}
              onCancel={clearSelection}
              onStale={() => void query.refetch()}
              onDone={() => void query.refetch().then(clearSelection)}
            />
          ) : (
            <>
              <span>{selectedIds.length} selected</span>
              {((pageSelected && total > rows.length) || !selectionActions) && (
                <button type="button" className="link-button" onClick={() => setMatchingFor(matchingKey)}>
                  Select all {total.toLocaleString('en')} matching
                </button>
              )}
              {access.ACTIVE_INACTIVE && (
                <>
                  <button
                    type="button"
                    className="button"
                    onClick={() =>
                      bulkStatus.mutate({ ids: selectedIds, isActive: true }, { onSuccess: clearSelection })
                    }
                  >
                    Activate selected
                  </button>
                  <button
                    type="button"
                    className="button"
                    onClick={() => setPendingDeactivation({ ids: selectedIds, name: null })}
                  >
                    Deactivate selected
                  </button>
                </>
              )}
              {access.delete && (
                <button type="button" className="button button--danger" onClick={() => setPendingBulkDelete(true)}>
                  Delete selected
                </button>
              )}
              <button type="button" className="link-button" onClick={clearSelection}>
                Clear selection
              </button>
            </>
          )}
        </div>
      )}

      <div ref={tableRegion} tabIndex={-1} className="table-region" aria-busy={query.isFetching || undefined}>
        <QueryState
          isPending={query.isPending || customisation.waiting}
          isError={query.isError && !query.data}
          what={resource.label.toLowerCase()}
          onRetry={() => query.refetch()}
        >
          {rows.length === 0 ? (
            <div className="screen-state">
              <p>
                {filtering
                  ? `No ${resource.label.toLowerCase()} match the search and filters.`
                  : `No ${resource.label.toLowerCase()} yet.`}
              </p>
              {filtering && (
                <button type="button" className="button" onClick={() => state.update({ search: '', filters: {} })}>
                  Clear search and filters
                </button>
              )}
            </div>
          ) : (
            <ResourceTable
              resource={resource}
              rows={rows}
              columns={customisation.shown}
              access={access}
              sort={state.sort}
              onSort={(sort) => state.update({ sort })}
              selectable={selectable}
              selection={selection}
              onSelection={setSelection}
              onToggleActive={toggleActive}
              onDelete={setPendingDelete}
              renderCell={renderCell}
            />
          )}
        </QueryState>
      </div>
      {total > 0 && (
        <Pagination
          page={state.page}
          size={state.size}
          total={total}
          defaultSize={list.pageSize}
          onPage={(page) => {
            clearSelection();
            state.update({ page });
          }}
          onSize={(size) => state.update({ size })}
        />
      )}

      {pendingDelete && (
        <ConfirmDialog
          title={`Delete ${resource.singular.toLowerCase()}?`}
          confirmLabel="Delete"
          destructive
          busy={remove.isPending}
          onConfirm={confirmDelete}
          onCancel={() => setPendingDelete(null)}
        >
          <p>
            {formatValue(firstField, pendingDelete, list.columns[0])} will be {trash ? 'moved to the trash' : 'deleted'}
            . {afterDelete}
          </p>
        </ConfirmDialog>
      )}
      {pendingBulkDelete && (
        <ConfirmDialog
          title={`Delete ${selectedIds.length} ${resource.label.toLowerCase()}?`}
          confirmLabel="Delete"
          destructive
          busy={bulkRemove.isPending}
          onConfirm={confirmBulkDelete}
          onCancel={() => setPendingBulkDelete(false)}
        >
          <p>
            The selected {resource.label.toLowerCase()} will be {trash ? 'moved to the trash' : 'deleted'}.{' '}
            {trash ? 'You can restore them from the trash.' : 'This cannot be undone.'}
          </p>
        </ConfirmDialog>
      )}
      {pendingDeactivation && (
        <ConfirmDialog
          title={
            pendingDeactivation.name === null
              ? `Deactivate ${pendingDeactivation.ids.length} ${resource.label.toLowerCase()}?`
              : `Deactivate ${resource.singular.toLowerCase()}?`
          }
          confirmLabel="Deactivate"
          destructive
          busy={bulkStatus.isPending}
          onConfirm={confirmDeactivation}
          onCancel={() => setPendingDeactivation(null)}
        >
          <p>
            {pendingDeactivation.name === null
              ? `The ${pendingDeactivation.ids.length} selected ${resource.label.toLowerCase()} will be deactivated.`
              : `${pendingDeactivation.name} will be deactivated.`}{' '}
            You can activate {pendingDeactivation.name === null ? 'them' : 'it'} again later.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
