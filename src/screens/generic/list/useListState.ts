import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  FROM_SUFFIX,
  isDatePreset,
  presetRange,
  RANGE_SUFFIX,
  TO_SUFFIX,
  VALUE_SEPARATOR,
} from '../../../../contract/listFilters.ts';
import type { ListDescription } from '../../../generated/types.ts';

/** Page sizes offered beside the manifest's default. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;

export interface ListState {
  page: number;
  size: number;
  sort: { field: string; direction: 'asc' | 'desc' };
  search: string;
  /** Filter values by URL key: a field, `<field>_from` / `_to` / `_range` for dates, `<field>_empty`. */
  filters: Record<string, string>;
  /** The columns the address names (a saved view's), or null: the user's own, else the manifest's. */
  columns: string[] | null;
  /** The saved view the address names, if any. */
  viewId: number | null;
}

export interface UseListStateResult extends ListState {
  /** Changes the state in the URL; anything but the page sends the user back to page 1. */
  update: (
    patch: Partial<Omit<ListState, 'filters' | 'columns' | 'viewId'>> & {
      filters?: Record<string, string>;
      columns?: string[] | null;
    },
    options?: { replace?: boolean },
  ) => void;
  /** Replaces the whole query with a saved view's (`query` as `viewQuery` gives it), naming the view. */
  openView: (viewId: number | null, query: Record<string, string>, options?: { replace?: boolean }) => void;
  /** The query of the list endpoint: `_page`, `_page_size`, `_sort`, `_order`, `q` and the filters. */
  apiParams: Record<string, string | number>;
  /** What a saved view keeps of the address: search, filters, sort, columns and page size (not the page or the view). */
  viewQuery: Record<string, string>;
  /** True when the address holds nothing of the list's own (the default view may apply). */
  isPlain: boolean;
}

const RESERVED = new Set(['page', 'size', 'sort', 'q', 'columns', 'view']);

/**
 * The list's page, size, sort, search, filters, columns and view, kept in the URL so back, reload and a shared link
 * restore the same list. `sort` is the field, prefixed with "-" when descending.
 */
export function useListState(list: ListDescription, filterKeys: readonly string[]): UseListStateResult {
  const [params, setParams] = useSearchParams();

  const state = useMemo(() => readListState(params, list, filterKeys), [params, list, filterKeys]);

  const update = useCallback<UseListStateResult['update']>(
    (patch, options) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          const set = (key: string, value: string | number | undefined) =>
            value === undefined || value === '' ? next.delete(key) : next.set(key, String(value));
          if (patch.size !== undefined) set('size', patch.size === list.pageSize ? undefined : patch.size);
          if (patch.sort) {
            const isDefault = patch.sort.field === list.sort.field && patch.sort.direction === list.sort.direction;
            set('sort', isDefault ? undefined : `${patch.sort.direction === 'desc' ? '-' : ''}${patch.sort.field}`);
          }
          if (patch.search !== undefined) set('q', patch.search);
          if (patch.columns !== undefined) set('columns', patch.columns?.join(VALUE_SEPARATOR));
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

  const openView = useCallback<UseListStateResult['openView']>(
    (viewId, query, options) =>
      setParams(new URLSearchParams({ ...(viewId ? { view: String(viewId) } : {}), ...query }), {
        replace: options?.replace ?? false,
      }),
    [setParams],
  );

  const apiParams = useMemo(() => listApiParams(state, new Date()), [state]);

  const viewQuery = useMemo(() => {
    const query: Record<string, string> = { ...state.filters };
    for (const key of ['q', 'sort', 'size', 'columns']) {
      const value = params.get(key);
      if (value) query[key] = value;
    }
    return query;
  }, [state.filters, params]);

  const isPlain = useMemo(() => isPlainList(params), [params]);

  return { ...state, update, openView, apiParams, viewQuery, isPlain };
}

/** The list's state as the address `params` gives it. */
export function readListState(
  params: URLSearchParams,
  list: ListDescription,
  filterKeys: readonly string[],
): ListState {
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
  const columns = params.get('columns')?.split(VALUE_SEPARATOR).filter(Boolean) ?? null;
  return {
    page,
    size,
    sort,
    search: params.get('q') ?? '',
    filters,
    columns: columns?.length ? columns : null,
    viewId: positiveInteger(params.get('view')) ?? null,
  };
}

/** The query of the list endpoint for a state: `_page`, `_page_size`, `_sort`, `_order`, `q` and the filters. */
export function listApiParams(state: ListState, now: Date): Record<string, string | number> {
  const query: Record<string, string | number> = {
    _page: state.page,
    _page_size: state.size,
    _sort: state.sort.field,
    _order: state.sort.direction,
  };
  for (const [key, value] of Object.entries(state.filters)) {
    const preset = key.endsWith(RANGE_SUFFIX) ? value : null;
    if (preset === null) query[key] = value;
    else if (isDatePreset(preset)) {
      // A preset stays a name in the address (and a saved view), so "last 7 days" moves on with the calendar.
      const field = key.slice(0, -RANGE_SUFFIX.length);
      const { from, to } = presetRange(preset, now);
      query[`${field}${FROM_SUFFIX}`] = from;
      query[`${field}${TO_SUFFIX}`] = to;
    }
  }
  if (state.search.trim()) query.q = state.search.trim();
  return query;
}

/** True when the address holds nothing of the list's own but its page (the user's default view may apply). */
export function isPlainList(params: URLSearchParams): boolean {
  return [...params.keys()].every((key) => key === 'page');
}

/** A page or page size from the URL: a positive whole number, else nothing. */
export function positiveInteger(value: string | null): number | undefined {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : undefined;
}
