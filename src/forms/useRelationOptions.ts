import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../http/index.ts';

export interface RelationOption {
  value: number | string;
  label: string;
}

const fetchOptions = (api: string, params: Record<string, string | number>, signal: AbortSignal) =>
  http.get<{ data: RelationOption[] }>(`${api}/options`, { params, loader: false, signal }).then((body) => body.data);

/**
 * The options of a relation field: GET `<api>/options` of the related resource, the first page of active records,
 * or those whose label contains `search`. Kept free of rjsf so list filters can use it without pulling the forms
 * library into the list chunk.
 */
export function useRelationOptions(api: string, search = '') {
  const q = search.trim();
  return useQuery({
    queryKey: ['options', api, q],
    queryFn: ({ signal }) => fetchOptions(api, q ? { q } : {}, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

const labelKey = (api: string, value: RelationOption['value']) => ['options', api, 'id', String(value)];

/**
 * The label of a value already chosen (GET `<api>/options?id=`), which the first page or a search may not hold;
 * `remember` files the label of an option the user just picked, so it is not asked for again.
 */
export function useRelationLabel(api: string, value: RelationOption['value'] | null) {
  const queryClient = useQueryClient();
  const label = useQuery({
    queryKey: labelKey(api, value ?? ''),
    queryFn: ({ signal }) => fetchOptions(api, { id: value! }, signal).then((options) => options[0]?.label ?? null),
    enabled: value !== null,
    staleTime: 60_000,
  });
  const remember = (option: RelationOption) => queryClient.setQueryData(labelKey(api, option.value), option.label);
  return {
    label: value === null ? null : (label.data ?? null),
    isPending: value !== null && label.isPending,
    remember,
  };
}
