import { QueryState, type QueryLike } from '../../shared/QueryState.tsx';
import { RowsTable, type RowsTableProps } from '../../shared/RowsTable.tsx';
import { Pagination } from './Pagination.tsx';
import type { UsePagingResult } from './usePaging.ts';

/** One page of a paged API list: its rows, and how many there are in all. */
export interface PageOf<Row> {
  data: Row[];
  meta: { total: number; page: number; page_size: number };
}

export interface PagedRowsTableProps<Row> extends Omit<RowsTableProps<Row>, 'rows'> {
  query: QueryLike & { data?: PageOf<Row> };
  /** What is loading, e.g. "the webhooks". */
  what: string;
  /** Said in place of the table when the page has no rows. */
  empty: string;
  paging: UsePagingResult;
  /** The pager shows while every row fits on one page too (else only once there is a second page). */
  pagerOnSinglePage?: boolean;
}

/** A page of rows from the API in a table, its loading and error states, and the pager under it. */
export function PagedRowsTable<Row extends { id: number | string }>({
  query,
  what,
  empty,
  paging,
  pagerOnSinglePage = false,
  ...table
}: PagedRowsTableProps<Row>) {
  const total = query.data?.meta.total ?? 0;
  return (
    <QueryState query={query} what={what} keepsLoadedData>
      {query.data?.data.length === 0 ? (
        <p role="status">{empty}</p>
      ) : (
        <RowsTable {...table} rows={query.data?.data ?? []} />
      )}
      {total > (pagerOnSinglePage ? 0 : paging.size) && <Pagination {...paging} total={total} />}
    </QueryState>
  );
}
