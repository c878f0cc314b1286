import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type RowSelectionState, type SortingState } from '@tanstack/react-table';
import { useMemo } from 'react';
import type { FieldDescription, ResourceDescription } from '../../../generated/types.ts';
import { formatValue, type Row } from '../../shared/formatValue.ts';
import type { ResourceAccess } from '../../shared/useResourceAccess.ts';
import type { CellRenderer } from './listCells.ts';
import { RowActionsMenu } from './RowActionsMenu.tsx';
import { rowOpenPath, rowPath } from './rowPaths.ts';
import { TableCardCell, TableText } from './TableCells.tsx';
import { useRowNavigation } from './useRowNavigation.ts';
import { useTableFit } from './useTableFit.ts';
import './tableRows.css';

/** What formatValue shows for no value. */
const EMPTY = '—';

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
 * (useTableFit); phone-wide, each row is a card.
 */
export function ResourceTable({ resource, rows, columns: columnNames, access, sort, onSort, selectable, selection, onSelection, onToggleActive, onDelete, renderCell }: ResourceTableProps) {
  const fields = useMemo(() => resource.entity?.fields ?? [], [resource]);
  const fieldOf = (name: string) => fields.find((field) => field.name === name);
  const labelOf = (row: Row) => formatValue(fieldOf(columnNames[0]!), row, columnNames[0]);
  const fit = useTableFit<HTMLDivElement, HTMLTableElement>(columnNames, resource.list?.priority ?? [], rows);
  const left = fit.cards ? columnNames.slice(1) : fit.hidden;
  const hasActions = access.view_detail || access.edit || access.delete || access.SUBSCRIBER_DETAIL;

  const columns = useMemo<ColumnDef<Row>[]>(() => {
    const dataColumns: ColumnDef<Row>[] = columnNames.map((name) => {
      const field = fields.find((candidate) => candidate.name === name);
      return { id: name, accessorFn: (row) => row[name], header: field?.title ?? name, enableSorting: true, meta: { field } };
    });
    const select: ColumnDef<Row> = { id: '_select', header: 'Select', enableSorting: false };
    const actions: ColumnDef<Row> = { id: '_actions', header: 'Actions', enableSorting: false };
    return [...(selectable ? [select] : []), ...dataColumns, ...(hasActions ? [actions] : [])];
  }, [columnNames, fields, selectable, hasActions]);

  const sorting: SortingState = [{ id: sort.field, desc: sort.direction === 'desc' }];
  const table = useReactTable({
    data: rows,
    columns,
    state: { sorting, rowSelection: selection, columnVisibility: Object.fromEntries(left.map((name) => [name, false])) },
    getRowId: (row) => String(row.id),
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    enableRowSelection: selectable,
    onRowSelectionChange: (updater) => onSelection(typeof updater === 'function' ? updater(selection) : updater),
  });
  const tableRows = table.getRowModel().rows;
  const openPaths = rows.map((row) => rowOpenPath(resource, access, row));
  const navigation = useRowNavigation({ count: rows.length, pathOf: (index) => openPaths[index] ?? null, onToggle: selectable ? (index) => tableRows[index]?.toggleSelected() : undefined });

  // A card leaves out empty values: a line of dashes says nothing. A bare number says nothing either: it is titled.
  const cardValues = (row: Row) =>
    fit.cardColumns.flatMap((name) => {
      const field = fieldOf(name);
      const value = renderCell?.(name, row) ?? formatValue(field, row, name);
      const titled = field?.type === 'integer' || field?.type === 'number';
      return value === EMPTY ? [] : [{ name, title: field?.title ?? name, value, titled }];
    });

  const cell = (columnId: string, row: Row, index: number, field: FieldDescription | undefined) => {
    const tabbable = index === navigation.active;
    const label = labelOf(row);
    if (columnId === '_select') {
      const tableRow = table.getRow(String(row.id));
      return <input type="checkbox" aria-label={`Select ${label}`} tabIndex={tabbable ? 0 : -1} checked={tableRow.getIsSelected()} onChange={tableRow.getToggleSelectedHandler()} />;
    }
    if (columnId === '_actions') {
      const path = (screen: Parameters<typeof rowPath>[2]) => rowPath(resource, access, screen, row);
      return <RowActionsMenu label={label} view={path('view_detail')} details={path('SUBSCRIBER_DETAIL')} edit={path('edit')} onDelete={access.delete ? () => onDelete(row) : null} tabbable={tabbable} />;
    }
    if (fit.cards) return <TableCardCell label={label} path={openPaths[index] ?? null} tabbable={tabbable} values={cardValues(row)} />;
    if (columnId === columnNames[0]) return <TableText text={label} path={openPaths[index] ?? null} tabbable={tabbable} />;
    if (columnId === 'is_active' && access.ACTIVE_INACTIVE) {
      const active = row.is_active === true;
      return (
        <button type="button" role="switch" aria-checked={active} aria-label={`Active: ${label}`} className="switch" tabIndex={tabbable ? 0 : -1} onClick={() => onToggleActive(row, !active)}>
          <span aria-hidden="true">{active ? 'Active' : 'Inactive'}</span>
        </button>
      );
    }
    return renderCell?.(columnId, row) ?? <TableText text={formatValue(field, row, columnId)} path={null} tabbable={false} />;
  };

  const sortedBy = fieldOf(sort.field)?.title ?? sort.field;
  const hiddenTitles = fit.hidden.map((name) => fieldOf(name)?.title ?? name);
  return (
    <div ref={fit.frameRef} className="table-frame">
      <table ref={fit.tableRef} className={`data-table resource-table${fit.cards ? ' resource-table--cards' : ''}`}>
        <caption className="visually-hidden">
          {resource.label}, sorted by {sortedBy} {sort.direction === 'asc' ? 'ascending' : 'descending'}
          {hiddenTitles.length > 0 && `; left out to fit the screen: ${hiddenTitles.join(', ')}`}
        </caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const id = header.column.id;
                const sorted = sort.field === id ? sort.direction : null;
                if (id === '_select') {
                  return (
                    <th key={id} scope="col" className="resource-table__control">
                      <input type="checkbox" aria-label="Select all rows on this page" checked={table.getIsAllRowsSelected()} onChange={table.getToggleAllRowsSelectedHandler()} />
                    </th>
                  );
                }
                if (id === '_actions') {
                  return (
                    <th key={id} scope="col" className="resource-table__control">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  );
                }
                return (
                  <th key={id} scope="col" data-column={id} aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}>
                    <button type="button" className="sort-button" onClick={() => onSort({ field: id, direction: sorted === 'asc' ? 'desc' : 'asc' })}>
                      {flexRender(header.column.columnDef.header, header.getContext())}
                      <span aria-hidden="true" className="sort-button__mark">
                        {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                      </span>
                    </button>
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody onKeyDown={navigation.onBodyKeyDown}>
          {tableRows.map((row, index) => (
            <tr key={row.id} {...navigation.rowProps(index)} className={openPaths[index] ? 'resource-row resource-row--opens' : 'resource-row'} aria-selected={selectable ? row.getIsSelected() : undefined}>
              {row.getVisibleCells().map((tableCell) => (
                <td key={tableCell.id} className={tableCell.column.id.startsWith('_') ? 'resource-table__control' : undefined}>
                  {cell(tableCell.column.id, row.original, index, (tableCell.column.columnDef.meta as { field?: FieldDescription } | undefined)?.field)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
