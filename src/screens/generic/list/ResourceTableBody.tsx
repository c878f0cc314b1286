import type { RowSelectionState } from '@tanstack/react-table';
import { memo, useCallback, useMemo } from 'react';
import type { FieldDescription, ResourceDescription } from '../../../generated/types.ts';
import { formatValue, type Row } from '../../shared/formatValue.ts';
import type { ResourceAccess } from '../../shared/useResourceAccess.ts';
import type { CellRenderer } from './listCells.ts';
import { RowActionsMenu } from './RowActionsMenu.tsx';
import { rowOpenPath, rowPath } from './rowPaths.ts';
import { ACTIONS, SELECT } from './tableControlColumns.ts';
import { TableCardCell, TableText } from './TableCells.tsx';
import { useRowNavigation } from './useRowNavigation.ts';

/** What formatValue shows for no value. */
const EMPTY = '—';

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
export const ResourceTableBody = memo(function ResourceTableBody({
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
