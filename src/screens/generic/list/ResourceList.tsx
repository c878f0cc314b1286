import { useMemo, useRef } from 'react';
import { trashPath } from '../../../../contract/trashPath.ts';
import type { ListDescription, ResourceDescription } from '../../../generated/types.ts';
import { QueryState } from '../../shared/QueryState.tsx';
import { ScreenHeading } from '../../shared/ScreenHeading.tsx';
import { useResourceAccess } from '../../shared/useResourceAccess.ts';
import { ExportProgress } from './ExportProgress.tsx';
import { ListConfirmDialogs } from './ListConfirmDialogs.tsx';
import { ListHeadingActions } from './ListHeadingActions.tsx';
import { listFilters } from './listFilters.ts';
import { ListToolbar } from './ListToolbar.tsx';
import { Pagination } from './Pagination.tsx';
import { ResourceTable } from './ResourceTable.tsx';
import { SelectionBar } from './SelectionBar.tsx';
import { useListCells } from './listCells.ts';
import { useExport } from './useExport.ts';
import { useListConfirmations } from './useListConfirmations.ts';
import { useListCustomisation } from './useListCustomisation.ts';
import { useListMutations } from './useListMutations.ts';
import { listPageKey, useListPage } from './useListPage.ts';
import { useListSelection } from './useListSelection.ts';
import { useListState } from './useListState.ts';

export interface ResourceListProps {
  resource: ResourceDescription;
  list: ListDescription;
}

/** A resource's list: its state, page, selection and confirmations from hooks, composed of the list's views. */
export function ResourceList({ resource, list }: ResourceListProps) {
  const filters = useMemo(() => listFilters(resource), [resource]);
  const filterKeys = useMemo(() => filters.flatMap((filter) => filter.keys), [filters]);
  const state = useListState(list, filterKeys);
  const customisation = useListCustomisation(resource, list, state);
  const access = useResourceAccess(resource);
  const listKey = useMemo(() => listPageKey(resource.api, state.apiParams), [resource.api, state.apiParams]);
  const { query, page } = useListPage(listKey, customisation);
  const trash = resource.entity?.softDelete && resource.routes.view ? trashPath(resource.routes.view) : null;
  const mutations = useListMutations(resource.api, listKey, resource.singular, { restorable: trash !== null });
  const { progress, exportCsv } = useExport(resource.api);
  const tableRegion = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => page?.data ?? [], [page]);
  const selection = useListSelection(rows, state.apiParams);
  const confirmations = useListConfirmations({ resource, list, mutations, selection, tableRegion });
  const renderCell = useListCells(resource, rows, listKey);
  const total = page?.meta.total ?? 0;
  // Rows are selectable only for a bulk action this user may take: on the selection, or setting a field on all matching.
  const selectionActions = access.delete || access.ACTIVE_INACTIVE;
  const selectable = selectionActions || (access.edit && list.bulkEdit.length > 0);
  const filtering = state.search !== '' || Object.keys(state.filters).length > 0;

  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenHeading
        actions={
          <ListHeadingActions
            resource={resource}
            access={access}
            trash={trash}
            exporting={progress !== null}
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

      {selectable && (
        <SelectionBar
          resource={resource}
          access={access}
          selection={selection}
          total={total}
          pageRows={rows.length}
          params={state.apiParams}
          selectionActions={selectionActions}
          onActivate={() =>
            mutations.bulkStatus.mutate({ ids: selection.selectedIds, isActive: true }, { onSuccess: selection.clear })
          }
          onDeactivate={confirmations.askBulkDeactivation}
          onDelete={confirmations.askBulkDelete}
          onRefetch={() => query.refetch()}
        />
      )}

      <div ref={tableRegion} tabIndex={-1} className="table-region" aria-busy={query.isFetching || undefined}>
        <QueryState query={query} what={resource.label.toLowerCase()} waiting={customisation.waiting} keepsLoadedData>
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
              selection={selection.selection}
              onSelection={selection.setSelection}
              onToggleActive={confirmations.toggleActive}
              onDelete={confirmations.askDelete}
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
            selection.clear();
            state.update({ page });
          }}
          onSize={(size) => state.update({ size })}
        />
      )}

      <ListConfirmDialogs
        resource={resource}
        toTrash={trash !== null}
        selectedCount={selection.selectedIds.length}
        confirmations={confirmations}
      />
    </section>
  );
}
