import { BusyButton } from './BusyButton.tsx';

export interface RefreshButtonProps {
  /** The query read again; the button waits while it is fetching. */
  query: { isFetching: boolean; refetch: () => Promise<unknown> };
}

/** A screen heading's Refresh: reads the screen's query again. */
export function RefreshButton({ query }: RefreshButtonProps) {
  return (
    <BusyButton onClick={() => query.refetch()} busy={query.isFetching}>
      Refresh
    </BusyButton>
  );
}
