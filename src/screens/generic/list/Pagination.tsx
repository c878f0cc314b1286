import { RowsPerPage } from './RowsPerPage.tsx';

export interface PaginationProps {
  page: number;
  size: number;
  total: number;
  defaultSize: number;
  onPage: (page: number) => void;
  onSize: (size: number) => void;
}

/** Server-side paging: rows per page, the range shown, previous and next. */
export function Pagination({ page, size, total, defaultSize, onPage, onSize }: PaginationProps) {
  const pages = Math.max(1, Math.ceil(total / size));
  const first = total === 0 ? 0 : (page - 1) * size + 1;
  const last = Math.min(total, page * size);
  return (
    <nav className="pagination" aria-label="Pagination">
      <RowsPerPage size={size} defaultSize={defaultSize} onSize={onSize} />
      <p className="pagination__range" aria-live="polite">
        {first}–{last} of {total} · Page {Math.min(page, pages)} of {pages}
      </p>
      <div className="pagination__buttons">
        <button type="button" className="button" onClick={() => onPage(page - 1)} disabled={page <= 1}>
          Previous page
        </button>
        <button type="button" className="button" onClick={() => onPage(page + 1)} disabled={page >= pages}>
          Next page
        </button>
      </div>
    </nav>
  );
}
