import { useQuery } from '@tanstack/react-query';
import { http } from '../../http/index.ts';
import type { Row } from './formatValue.ts';

/** One record of a resource: GET `<api>/:id`. */
export function useRecord(api: string, id: string | undefined) {
  return useQuery({
    queryKey: ['resource', api, 'record', id],
    queryFn: ({ signal }) => http.get<{ data: Row }>(`${api}/${id}`, { signal }).then((body) => body.data),
    enabled: id !== undefined,
  });
}
