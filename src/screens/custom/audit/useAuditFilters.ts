import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { positiveInteger } from '../../generic/list/useListState.ts';

/** The audit log's filters, by the key the URL and `GET audit-log` both use. */
export const AUDIT_FILTER_KEYS = ['user_id', 'module', 'action', 'record_id', 'from', 'to'] as const;

export type AuditFilterKey = (typeof AUDIT_FILTER_KEYS)[number];
export type AuditFilters = Partial<Record<AuditFilterKey, string>>;

export const AUDIT_PAGE_SIZE = 20;

export interface UseAuditFiltersResult {
  filters: AuditFilters;
  page: number;
  size: number;
  /** Changes the filters or the page size in the URL (back to page 1), or only the page. */
  update: (patch: { filters?: AuditFilters; page?: number; size?: number }) => void;
  /** The query of `GET audit-log`: the filters set, `_page` and `_page_size`. */
  apiParams: Record<string, string | number>;
}

/** The audit screen's filters and page, kept in the URL so back, reload and a shared link show the same entries. */
export function useAuditFilters(): UseAuditFiltersResult {
  const [params, setParams] = useSearchParams();
  return useMemo(() => {
    const filters: AuditFilters = {};
    for (const key of AUDIT_FILTER_KEYS) {
      const value = params.get(key);
      if (value) filters[key] = value;
    }
    const page = positiveInteger(params.get('page')) ?? 1;
    const size = positiveInteger(params.get('size')) ?? AUDIT_PAGE_SIZE;
    const update: UseAuditFiltersResult['update'] = (patch) => {
      const nextFilters = { ...filters, ...patch.filters };
      const next = new URLSearchParams();
      for (const key of AUDIT_FILTER_KEYS) if (nextFilters[key]) next.set(key, nextFilters[key]);
      const nextSize = patch.size ?? size;
      if (nextSize !== AUDIT_PAGE_SIZE) next.set('size', String(nextSize));
      const nextPage = patch.filters || patch.size ? 1 : (patch.page ?? page);
      if (nextPage > 1) next.set('page', String(nextPage));
      setParams(next);
    };
    return { filters, page, size, update, apiParams: { ...filters, _page: page, _page_size: size } };
  }, [params, setParams]);
}
