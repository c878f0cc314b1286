import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type RowSelectionState,
  type SortingState,
} from '@tanstack/react-table';
import { memo, useCallback, useId, useMemo } from 'react';
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
const SELECT = '_select';
const ACTIONS = '_actions';

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
                      className="sort-button"
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

interface ResourceTableBodyProps {
  resource: ResourceDescription;
  rows: Row[];
  /** The ids of the cells of each row, in order: data columns by name, and the select and actions controls. */
  columns: readonly string[];
  fields: readonly FieldDescription[];
  /** Phone-wide, the columns each row's card shows under its label; null for a row of cells. */
  cardColumns: readonly string[] | null;
  access: ResourceAccess;
  /** The selected rows, null when the list has no selection. */
  selection: RowSelectionState | null;
  onSelection: (selection: RowSelectionState) => void;
  onToggleActive: (row: Row, isActive: boolean) => void;
  onDelete: (row: Row) => void;
  renderCell?: CellRenderer | undefined;
}

/** The rows, rendered again only when what they show changes (not when the heading or the fitting does). */
const ResourceTableBody = memo(function ResourceTableBody({
  resource,
  rows,
  columns,
  fields,
  cardColumns,
  access,
  selection,
  onSelection,
  onToggleActive,
  onDelete,
  renderCell,
}: ResourceTableBodyProps) {
  const fieldOf = (name: string) => fields.find((field) => field.name === name);
  const labelColumn = columns.find((id) => !id.startsWith('_'))!;
  const labelOf = (row: Row) => formatValue(fieldOf(labelColumn), row, labelColumn);
  const openPaths = useMemo(() => rows.map((row) => rowOpenPath(resource, access, row)), [rows, resource, access]);
  const toggle = useCallback(
    (row: Row) => selection && onSelection({ ...selection, [String(row.id)]: !selection[String(row.id)] }),
    [selection, onSelection],
  );
  const navigation = useRowNavigation({
    count: rows.length,
    pathOf: (index) => openPaths[index] ?? null,
    onToggle: selection ? (index) => rows[index] && toggle(rows[index]) : undefined,
  });

  // A card leaves out empty values: a line of dashes says nothing. A bare number says nothing either: it is titled.
  const cardValues = (row: Row) =>
    (cardColumns ?? []).flatMap((name) => {
      const field = fieldOf(name);
      const value = renderCell?.(name, row) ?? formatValue(field, row, name);
      const titled = field?.type === 'integer' || field?.type === 'number';
      return value === EMPTY ? [] : [{ name, title: field?.title ?? name, value, titled }];
    });

  const cell = (columnId: string, row: Row, index: number) => {
    const tabbable = index === navigation.active;
    const label = labelOf(row);
    if (columnId === SELECT) {
      return (
        <input
          type="checkbox"
          aria-label={`Select ${label}`}
          tabIndex={tabbable ? 0 : -1}
          checked={selection?.[String(row.id)] === true}
          onChange={() => toggle(row)}
        />
      );
    }
    if (columnId === ACTIONS) {
      const path = (screen: Parameters<typeof rowPath>[2]) => rowPath(resource, access, screen, row);
      return (
        <RowActionsMenu
          label={label}
          view={path('view_detail')}
          details={path('SUBSCRIBER_DETAIL')}
          edit={path('edit')}
          onDelete={access.delete ? () => onDelete(row) : null}
          tabbable={tabbable}
        />
      );
    }
    if (cardColumns)
      return (
        <TableCardCell label={label} path={openPaths[index] ?? null} tabbable={tabbable} values={cardValues(row)} />
      );
    if (columnId === labelColumn) return <TableText text={label} path={openPaths[index] ?? null} tabbable={tabbable} />;
    if (columnId === 'is_active' && access.ACTIVE_INACTIVE) {
      const active = row.is_active === true;
      return (
        <button
          type="button"
          role="switch"
          aria-checked={active}
          aria-label={`Active: ${label}`}
          className="switch"
          tabIndex={tabbable ? 0 : -1}
          onClick={() => onToggleActive(row, !active)}
        >
          <span aria-hidden="true">{active ? 'Active' : 'Inactive'}</span>
        </button>
      );
    }
    return (
      renderCell?.(columnId, row) ?? (
        <TableText text={formatValue(fieldOf(columnId), row, columnId)} path={null} tabbable={false} />
      )
    );
  };

  return (
    <tbody onKeyDown={navigation.onBodyKeyDown}>
      {rows.map((row, index) => (
        <tr
          key={String(row.id)}
          {...navigation.rowProps(index)}
          className={openPaths[index] ? 'resource-row resource-row--opens' : 'resource-row'}
          aria-selected={selection ? selection[String(row.id)] === true : undefined}
        >
          {columns.map((columnId) => (
            <td key={columnId} className={columnId.startsWith('_') ? 'resource-table__control' : undefined}>
              {cell(columnId, row, index)}
            </td>
          ))}
        </tr>
      ))}
    </tbody>
  );
});
