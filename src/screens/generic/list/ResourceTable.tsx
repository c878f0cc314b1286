import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type RowSelectionState, type SortingState } from '@tanstack/react-table';
import { useMemo } from 'react';
import { Link, generatePath } from 'react-router-dom';
import type { FieldDescription, ResourceDescription } from '../../../generated/types.ts';
import { formatValue, type Row } from '../../shared/formatValue.ts';
import type { ResourceAccess } from '../../shared/useResourceAccess.ts';
import type { CellRenderer } from './listCells.ts';

export interface ResourceTableProps {
  resource: ResourceDescription;
  rows: Row[];
  /** The columns shown, in order. */
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

/** The actions column stays in view on the right while a wide table scrolls sideways in its region. */
const ACTIONS_CELL = 'actions-cell';

/** The rows of a list with TanStack Table: sortable headers, selection, active toggle and row actions. */
export function ResourceTable({ resource, rows, columns: columnNames, access, sort, onSort, selectable, selection, onSelection, onToggleActive, onDelete, renderCell }: ResourceTableProps) {
  const fields = useMemo(() => resource.entity?.fields ?? [], [resource]);
  const rowLabel = (row: Row) => formatValue(fields.find((field) => field.name === columnNames[0]), row, columnNames[0]);

  const columns = useMemo<ColumnDef<Row>[]>(() => {
    const dataColumns: ColumnDef<Row>[] = columnNames.map((name) => {
      const field = fields.find((candidate) => candidate.name === name);
      return { id: name, accessorFn: (row) => row[name], header: field?.title ?? name, enableSorting: true, meta: { field } };
    });
    const select: ColumnDef<Row> = { id: '_select', header: 'Select', enableSorting: false };
    const actions: ColumnDef<Row> = { id: '_actions', header: 'Actions', enableSorting: false };
    const hasActions = access.view_detail || access.edit || access.delete || access.SUBSCRIBER_DETAIL;
    return [...(selectable ? [select] : []), ...dataColumns, ...(hasActions ? [actions] : [])];
  }, [columnNames, fields, selectable, access]);

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

  const cell = (columnId: string, row: Row, field: FieldDescription | undefined) => {
    if (columnId === '_select') {
      const tableRow = table.getRow(String(row.id));
      return <input type="checkbox" aria-label={`Select ${rowLabel(row)}`} checked={tableRow.getIsSelected()} onChange={tableRow.getToggleSelectedHandler()} />;
    }
    if (columnId === '_actions') return <RowActions resource={resource} row={row} access={access} label={rowLabel(row)} onDelete={onDelete} />;
    if (columnId === 'is_active' && access.ACTIVE_INACTIVE) {
      const active = row.is_active === true;
      return (
        <button type="button" role="switch" aria-checked={active} aria-label={`Active: ${rowLabel(row)}`} className="switch" onClick={() => onToggleActive(row, !active)}>
          <span aria-hidden="true">{active ? 'Active' : 'Inactive'}</span>
        </button>
      );
    }
    return renderCell?.(columnId, row) ?? formatValue(field, row, columnId);
  };

  return (
    <table className="data-table">
      <caption className="visually-hidden">
        {resource.label}, sorted by {fields.find((field) => field.name === sort.field)?.title ?? sort.field} {sort.direction === 'asc' ? 'ascending' : 'descending'}
      </caption>
      <thead>
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((header) => {
              const id = header.column.id;
              const title = String(header.column.columnDef.header);
              const sorted = sort.field === id ? sort.direction : null;
              if (id === '_select') {
                return (
                  <th key={id} scope="col">
                    <input type="checkbox" aria-label="Select all rows on this page" checked={table.getIsAllRowsSelected()} onChange={table.getToggleAllRowsSelectedHandler()} />
                  </th>
                );
              }
              return (
                <th key={id} scope="col" className={id === '_actions' ? ACTIONS_CELL : undefined} aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}>
                  {header.column.getCanSort() ? (
                    <button type="button" className="sort-button" onClick={() => onSort({ field: id, direction: sorted === 'asc' ? 'desc' : 'asc' })}>
                      {title}
                      <span aria-hidden="true" className="sort-button__mark">
                        {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                      </span>
                    </button>
                  ) : (
                    flexRender(header.column.columnDef.header, header.getContext())
                  )}
                </th>
              );
            })}
          </tr>
        ))}
      </thead>
      <tbody>
        {table.getRowModel().rows.map((row) => (
          <tr key={row.id} aria-selected={selectable ? row.getIsSelected() : undefined}>
            {row.getVisibleCells().map((tableCell) => (
              <td key={tableCell.id} className={tableCell.column.id === '_actions' ? ACTIONS_CELL : undefined}>
                {cell(tableCell.column.id, row.original, (tableCell.column.columnDef.meta as { field?: FieldDescription } | undefined)?.field)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

interface RowActionsProps {
  resource: ResourceDescription;
  row: Row;
  access: ResourceAccess;
  label: string;
  onDelete: (row: Row) => void;
}

/** The actions the user may take on one row. */
function RowActions({ resource, row, access, label, onDelete }: RowActionsProps) {
  const id = String(row.id);
  const link = (action: 'view_detail' | 'edit' | 'SUBSCRIBER_DETAIL') => {
    const path = resource.routes[action];
    return access[action] && path ? generatePath(path, { id }) : null;
  };
  const detail = link('view_detail');
  const details = link('SUBSCRIBER_DETAIL');
  const edit = link('edit');
  return (
    <div className="row-actions">
      {detail && (
        <Link to={detail} aria-label={`View ${label}`}>
          View
        </Link>
      )}
      {details && (
        <Link to={details} aria-label={`Details of ${label}`}>
          Details
        </Link>
      )}
      {edit && (
        <Link to={edit} aria-label={`Edit ${label}`}>
          Edit
        </Link>
      )}
      {access.delete && (
        <button type="button" className="link-button link-button--danger" aria-label={`Delete ${label}`} onClick={() => onDelete(row)}>
          Delete
        </button>
      )}
    </div>
  );
}
