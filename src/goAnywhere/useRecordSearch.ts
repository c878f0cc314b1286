import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { http } from '../http/index.ts';

/** What GET search answers: the records found, grouped by resource (docs/api.md, "Search"). */
export interface FoundResource {
  resource: string;
  label: string;
  /** `details`: what tells a record from others with a like label (its resource's `describe` in the manifest). */
  records: Array<{ id: number; label: string; details: string[] }>;
}

/** The fewest characters the server searches records for (SEARCH_MIN_LENGTH of the search route). */
export const RECORD_SEARCH_MIN_LENGTH = 3;
/** Records shown per resource. */
const RECORDS_PER_RESOURCE = 5;
/** Typing pause before the records are asked for, so a word typed quickly is one request. */
const TYPING_PAUSE_MS = 200;

export interface UseRecordSearchResult {
  found: FoundResource[];
  /** True while records for what was typed are being asked for. */
  searching: boolean;
}

/** The records across resources whose search text contains `query`, once the user pauses typing. */
export function useRecordSearch(query: string): UseRecordSearchResult {
  const q = query.trim();
  const [settled, setSettled] = useState(q);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(q), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [q]);
  const enabled = settled.length >= RECORD_SEARCH_MIN_LENGTH;
  const records = useQuery<FoundResource[]>({
    queryKey: ['search', settled],
    queryFn: ({ signal }) =>
      http
        .get<{ data: FoundResource[] }>('search', {
          params: { q: settled, limit: RECORDS_PER_RESOURCE },
          loader: false,
          signal,
        })
        .then((body) => body.data),
    enabled,
    // The records of the last search stay while the next is asked for, rather than the list emptying at each key.
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const waiting = q.length >= RECORD_SEARCH_MIN_LENGTH && (q !== settled || records.isFetching);
  return { found: q.length >= RECORD_SEARCH_MIN_LENGTH ? (records.data ?? []) : [], searching: waiting };
}
