import { useId } from 'react';
import { PAGE_SIZES } from './useListState.ts';

export interface RowsPerPageProps {
  size: number;
  /** The list's own page size, offered beside the usual ones. */
  defaultSize: number;
  onSize: (size: number) => void;
}

/** The pager's choice of how many rows a page shows. */
export function RowsPerPage({ size, defaultSize, onSize }: RowsPerPageProps) {
  const id = useId();
  const sizes = [...new Set([...PAGE_SIZES, defaultSize])].sort((a, b) => a - b);
  return (
    <div className="pagination__size">
      <label htmlFor={id}>Rows per page</label>
      <select id={id} value={size} onChange={(event) => onSize(Number(event.target.value))}>
        {sizes.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </div>
  );
}
