import type { ReactNode } from 'react';

/** What QueryState reads of a TanStack query. */
export interface QueryLike {
  isPending: boolean;
  isError: boolean;
  data?: unknown;
  refetch: () => unknown;
}

export interface QueryStateProps {
  /** The query (or queries, all needed) whose content this shows; Retry fetches each again. */
  query: QueryLike | QueryLike[];
  /** What is loading, e.g. "vouchers". */
  what: string;
  /** Something besides the queries the content waits for. */
  waiting?: boolean;
  /** A failed refetch leaves what was loaded before on screen: the error shows only when there is nothing to show. */
  keepsLoadedData?: boolean;
  children: ReactNode;
}

/** Loading and error (with retry) states around a query's content. */
export function QueryState({ query, what, waiting = false, keepsLoadedData = false, children }: QueryStateProps) {
  const queries = Array.isArray(query) ? query : [query];
  if (waiting || queries.some((one) => one.isPending)) {
    return (
      <p role="status" className="screen-state">
        Loading {what}…
      </p>
    );
  }
  if (queries.some((one) => one.isError && !(keepsLoadedData && one.data !== undefined))) {
    return (
      <div role="alert" className="screen-state screen-state--error">
        <p>Could not load {what}.</p>
        <button type="button" className="button" onClick={() => queries.forEach((one) => void one.refetch())}>
          Retry
        </button>
      </div>
    );
  }
  return <>{children}</>;
}
