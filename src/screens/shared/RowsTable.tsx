import type { ReactNode } from 'react';
import { ColumnHeadings } from './ColumnHeadings.tsx';

export interface RowsTableColumn<Row> {
  heading: string;
  cell: (row: Row) => ReactNode;
  className?: string;
}

export interface RowsTableProps<Row> {
  /** The region's accessible name, e.g. "Payments table". */
  label: string;
  rows: readonly Row[];
  columns: readonly RowsTableColumn<Row>[];
  className?: string;
}

/** Rows in a scrollable table region that the keyboard can reach, a column for each of `columns`. */
export function RowsTable<Row extends { id: number | string }>({
  label,
  rows,
  columns,
  className = 'data-table',
}: RowsTableProps<Row>) {
  return (
    <div className="table-region" role="region" aria-label={label} tabIndex={0}>
      <table className={className}>
        <ColumnHeadings names={columns.map((column) => column.heading)} />
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              {columns.map((column) => (
                <td key={column.heading} className={column.className}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
