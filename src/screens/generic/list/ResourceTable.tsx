import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type RowSelectionState,
  type SortingState,
} from '@tanstack/react-table';
import { useId, useMemo } from 'react';
import type { ResourceDescription } from '../../../generated/types.ts';
import type { Row } from '../../shared/formatValue.ts';
import type { ResourceAccess } from '../../shared/useResourceAccess.ts';
import type { CellRenderer } from './listCells.ts';
import { ResourceTableBody } from './ResourceTableBody.tsx';
import { ACTIONS, SELECT } from './tableControlColumns.ts';
import { useTableFit } from './useTableFit.ts';
import './tableRows.css';

export interface ResourceTableProps {
  resource: ResourceDescription;
  rows: Row[];
  /** The columns shown, in order; the first is the record's label. */
  columns: readonly string[];
  access: ResourceAccess;
  sort: { field: string; direction: 'asc' | 'desc' };
  onSort: (sort: { field: string; direction: 'asc' | 'desc' }) => void;
  selectable: boolean;
  selection: RowSelectionState;
  onSelection: (selection: RowSelectionState) => void;
  onToggleActive: (row: Row, isActive: boolean) => void;
  onDelete: (row: Row) => void;
  /** Cells a module shows in its own way (useListCells). */
  renderCell?: CellRenderer | undefined;
}

/**
 * The rows of a list with TanStack Table: one line each, the record's label a link, the row itself opening the record
 * (useRowNavigation), its actions in a compact menu. The least important columns give way where the region is narrow
 * (useTableFit): a style leaves them out, so fitting renders the heading again but not the rows. Phone-wide, each row
 * is a card.
 */
export function ResourceTable({
  resource,
  rows,
  columns: columnNames,
  access,
  sort,
  onSort,
  selectable,
  selection,
  onSelection,
  onToggleActive,
  onDelete,
  renderCell,
}: ResourceTableProps) {
  const fields = useMemo(() => resource.entity?.fields ?? [], [resource]);
  const fit = useTableFit<HTMLDivElement, HTMLTableElement>(columnNames, resource.list?.priority ?? [], rows);
  const fitId = useId();
  const hasActions = access.view_detail || access.edit || access.delete || access.SUBSCRIBER_DETAIL;

  const columns = useMemo<ColumnDef<Row>[]>(() => {
    const dataColumns: ColumnDef<Row>[] = columnNames.map((name) => {
      const field = fields.find((candidate) => candidate.name === name);
      return {
        id: name,
        accessorFn: (row) => row[name],
        header: field?.title ?? name,
        enableSorting: true,
        meta: { field },
      };
    });
    const select: ColumnDef<Row> = { id: SELECT, header: 'Select', enableSorting: false };
    const actions: ColumnDef<Row> = { id: ACTIONS, header: 'Actions', enableSorting: false };
    return [...(selectable ? [select] : []), ...dataColumns, ...(hasActions ? [actions] : [])];
  }, [columnNames, fields, selectable, hasActions]);
  // Phone-wide the data columns but the label go into its card.
  const shownColumns = useMemo(
    () => columns.map((column) => column.id!).filter((id) => !fit.cards || id.startsWith('_') || id === columnNames[0]),
    [columns, fit.cards, columnNames],
  );

  const sorting: SortingState = [{ id: sort.field, desc: sort.direction === 'desc' }];
  const table = useReactTable({
    data: rows,
    columns,
    state: { sorting, rowSelection: selection },
    getRowId: (row) => String(row.id),
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    enableRowSelection: selectable,
    onRowSelectionChange: (updater) => onSelection(typeof updater === 'function' ? updater(selection) : updater),
  });

  const titleOf = (name: string) => fields.find((field) => field.name === name)?.title ?? name;
  const hiddenPlaces = fit.hidden.map((name) => shownColumns.indexOf(name) + 1).filter((place) => place > 0);
  return (
    <div ref={fit.frameRef} className="table-frame">
      {hiddenPlaces.length > 0 && (
        <style>{`[data-fit="${fitId}"] tr > :is(${hiddenPlaces.map((place) => `:nth-child(${place})`).join(', ')}) { display: none; }`}</style>
      )}
      <table
        ref={fit.tableRef}
        data-fit={fitId}
        className={`data-table resource-table${fit.cards ? ' resource-table--cards' : ''}`}
      >
        <caption className="visually-hidden">
          {resource.label}, sorted by {titleOf(sort.field)} {sort.direction === 'asc' ? 'ascending' : 'descending'}
          {fit.hidden.length > 0 && `; left out to fit the screen: ${fit.hidden.map(titleOf).join(', ')}`}
        </caption>
        <thead>
          <tr>
            {table
              .getFlatHeaders()
              .filter((header) => shownColumns.includes(header.column.id))
              .map((header) => {
                const id = header.column.id;
                const sorted = sort.field === id ? sort.direction : null;
                if (id === SELECT) {
                  return (
                    <th key={id} scope="col" className="resource-table__control">
                      <input
                        type="checkbox"
                        aria-label="Select all rows on this page"
                        checked={table.getIsAllRowsSelected()}
                        onChange={table.getToggleAllRowsSelectedHandler()}
                      />
                    </th>
                  );
                }
                if (id === ACTIONS) {
                  return (
                    <th key={id} scope="col" className="resource-table__control">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  );
                }
                return (
                  <th
                    key={id}
                    scope="col"
                    data-column={id}
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                  >
                    <button
                      type="button"
                      className="text-button sort-button"
                      onClick={() => onSort({ field: id, direction: sorted === 'asc' ? 'desc' : 'asc' })}
                    >
                      {flexRender(header.column.columnDef.header, header.getContext())}
                      <span aria-hidden="true" className="sort-button__mark">
                        {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                      </span>
                    </button>
                  </th>
                );
              })}
          </tr>
        </thead>
        <ResourceTableBody
          resource={resource}
          rows={rows}
          columns={shownColumns}
          fields={fields}
          cardColumns={fit.cards ? fit.cardColumns : null}
          access={access}
          selection={selectable ? selection : null}
          onSelection={onSelection}
          onToggleActive={onToggleActive}
          onDelete={onDelete}
          renderCell={renderCell}
        />
      </table>
    </div>
  );
}
