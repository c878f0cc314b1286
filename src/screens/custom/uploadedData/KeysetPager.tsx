import { RowsPerPage } from '../../generic/list/RowsPerPage.tsx';

export interface KeysetPagerProps {
  /** The position of the page's first record (1 on the first page). */
  first: number;
  shown: number;
  size: number;
  defaultSize: number;
  total: number;
  /** The total is the database's estimate: shown as "about N". */
  estimated: boolean;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  onSize: (size: number) => void;
}

/** Paging by keyset: the range shown of the (exact or estimated) total, previous and next; no page numbers to jump to. */
export function KeysetPager({
  first,
  shown,
  size,
  defaultSize,
  total,
  estimated,
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
  onSize,
}: KeysetPagerProps) {
  const last = first + shown - 1;
  return (
    <nav className="pagination" aria-label="Pagination">
      <RowsPerPage size={size} defaultSize={defaultSize} onSize={onSize} />
      <p className="pagination__range" aria-live="polite">
        {first.toLocaleString('en')}–{last.toLocaleString('en')} of {estimated ? 'about ' : ''}
        {total.toLocaleString('en')}
      </p>
      <div className="pagination__buttons">
        <button type="button" className="button" onClick={onPrevious} disabled={!hasPrevious}>
          Previous page
        </button>
        <button type="button" className="button" onClick={onNext} disabled={!hasNext}>
          Next page
        </button>
      </div>
    </nav>
  );
}
