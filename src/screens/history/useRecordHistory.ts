import { useInfiniteQuery } from '@tanstack/react-query';
import type { EntriesPageMeta, HistoryEntryAnswer } from '../../../contract/audit.ts';
import { http } from '../../http/index.ts';

/** Entries per "Show older". */
const HISTORY_PAGE_SIZE = 10;

interface HistoryPage {
  data: HistoryEntryAnswer[];
  meta: EntriesPageMeta;
}

/** A record's history, newest first, a page at a time: GET `<api>/:id/history`. Under the resource's key, so a write reloads it. */
export function useRecordHistory(api: string, recordId: string) {
  return useInfiniteQuery({
    queryKey: ['resource', api, 'history', recordId],
    queryFn: ({ pageParam, signal }) =>
      http.get<HistoryPage>(`${api}/${recordId}/history`, {
        params: { _page: pageParam, _page_size: HISTORY_PAGE_SIZE },
        signal,
      }),
    initialPageParam: 1,
    getNextPageParam: ({ meta }) => (meta.page * meta.page_size < meta.total ? meta.page + 1 : undefined),
  });
}
