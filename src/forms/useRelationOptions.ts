import { useQuery } from '@tanstack/react-query';
import { http } from '../http/index.ts';

export interface RelationOption {
  value: number | string;
  label: string;
}

/**
 * The options of a relation field: GET `<api>/options` of the related resource. Kept free of rjsf so
 * list filters can use it without pulling the forms library into the list chunk.
 */
export function useRelationOptions(api: string) {
  return useQuery({
    queryKey: ['options', api],
    queryFn: ({ signal }) => http.get<{ data: RelationOption[] }>(`${api}/options`, { loader: false, signal }).then((body) => body.data),
    staleTime: 60_000,
  });
}
