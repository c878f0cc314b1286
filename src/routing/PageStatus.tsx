import type { ReactNode } from 'react';

export interface PageStatusProps {
  children?: ReactNode;
}

/** A quiet placeholder while a guard waits for permissions or a chunk. */
export function PageStatus({ children = 'Loading…' }: PageStatusProps) {
  return (
    <p className="page-status" role="status">
      {children}
    </p>
  );
}
