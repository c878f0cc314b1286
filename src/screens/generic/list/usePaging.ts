import { useState } from 'react';
import type { PaginationProps } from './Pagination.tsx';

/** The page shown, held by the screen rather than the address; what Pagination takes, but the total. */
export type UsePagingResult = Omit<PaginationProps, 'total'>;

/** A list's page and page size in the screen's state, from the first page; a new page size goes back to it. */
export function usePaging(defaultSize: number): UsePagingResult {
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(defaultSize);
  return {
    page,
    size,
    defaultSize,
    onPage: setPage,
    onSize: (chosen) => {
      setSize(chosen);
      setPage(1);
    },
  };
}
