import type { ReactNode } from 'react';

export interface DetailItemProps {
  term: string;
  children: ReactNode;
}

/** One term of a `detail-list` and its value. */
export function DetailItem({ term, children }: DetailItemProps) {
  return (
    <div className="detail-list__item">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
