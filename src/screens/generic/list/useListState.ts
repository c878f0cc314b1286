import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ListDescription } from '../../../generated/types.ts';

/** Page sizes offered beside the manifest's default. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;

export interface ListState {
  page: number;
  size: number;
  sort: { field: string; direction: 'asc' | 'desc' };
  search: string;
  /** Filter values by URL key: a field, or `<field>_from` / `<field>_to` for date ranges. */
  filters: Record<string, string>;
}

export interface UseListStateResult extends ListState {
  /** Changes the state in the URL; anything but the page sends the user back to page 1. */
  update: (patch: Partial<Omit<ListState, 'filters'>> & { filters?: Record<string, string> }, options?: { replace?: boolean }) => void;
  /** The query of the list endpoint: `_page`, `_page_size`, `_sort`, `_order`, `q` and the filters. */
  apiParams: Record<string, string | number>;
}

const RESERVED = new Set(['page', 'size', 'sort', 'q']);

/**
 * The list's page, size, sort, search and filters, kept in the URL so back, reload and a shared link
 * restore the same list. `sort` is the field, prefixed with "-" when descending.
 */
export function useListState(list: ListDescription, filterKeys: readonly string[]): UseListStateResult {
  const [params, setParams] = useSearchParams();

  const state = useMemo<ListState>(() => {
    const page = positiveInteger(params.get('page')) ?? 1;
    const size = positiveInteger(params.get('size')) ?? list.pageSize;
    const rawSort = params.get('sort');
    const sort = rawSort
      ? { field: rawSort.replace(/^-/, ''), direction: rawSort.startsWith('-') ? ('desc' as const) : ('asc' as const) }
      : list.sort;
    const filters: Record<string, string> = {};
    for (const key of filterKeys) {
      const value = params.get(key);
      if (value) filters[key] = value;
    }
    return { page, size, sort, search: params.get('q') ?? '', filters };
  }, [params, list, filterKeys]);

  const update = useCallback<UseListStateResult['update']>(
    (patch, options) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          const set = (key: string, value: string | number | undefined) => (value === undefined || value === '' ? next.delete(key) : next.set(key, String(value)));
          if (patch.size !== undefined) set('size', patch.size === list.pageSize ? undefined : patch.size);
          if (patch.sort) {
            const isDefault = patch.sort.field === list.sort.field && patch.sort.direction === list.sort.direction;
            set('sort', isDefault ? undefined : `${patch.sort.direction === 'desc' ? '-' : ''}${patch.sort.field}`);
          }
          if (patch.search !== undefined) set('q', patch.search);
          if (patch.filters) {
            for (const key of [...next.keys()]) if (!RESERVED.has(key)) next.delete(key);
            for (const [key, value] of Object.entries(patch.filters)) set(key, value);
          }
          set('page', patch.page !== undefined && patch.page > 1 ? patch.page : undefined);
          return next;
        },
        { replace: options?.replace ?? false },
      );
    },
    [setParams, list],
  );

  const apiParams = useMemo(() => {
    const query: Record<string, string | number> = {
      _page: state.page,
      _page_size: state.size,
      _sort: state.sort.field,
      _order: state.sort.direction,
      ...state.filters,
    };
    if (state.search.trim()) query.q = state.search.trim();
    return query;
  }, [state]);

  return { ...state, update, apiParams };
}

/** A page or page size from the URL: a positive whole number, else nothing. */
export function positiveInteger(value: string | null): number | undefined {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : undefined;
}
