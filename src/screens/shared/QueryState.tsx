import type { ReactNode } from 'react';

export interface QueryStateProps {
  isPending: boolean;
  isError: boolean;
  /** What is loading, e.g. "vouchers". */
  what: string;
  onRetry: () => void;
  children: ReactNode;
}

/** Loading and error (with retry) states around a query's content. */
export function QueryState({ isPending, isError, what, onRetry, children }: QueryStateProps) {
  if (isPending) {
    return (
      <p role="status" className="screen-state">
        Loading {what}…
      </p>
    );
  }
  if (isError) {
    return (
      <div role="alert" className="screen-state screen-state--error">
        <p>Could not load {what}.</p>
        <button type="button" className="button" onClick={onRetry}>
          Retry
        </button>
      </div>
    );
  }
  return <>{children}</>;
}
