import type { ReactNode } from 'react';
import { ColumnHeadings } from '../../shared/ColumnHeadings.tsx';

export interface RejectedLinesTableProps {
  lines: readonly { line: number; reason: string }[];
  caption: ReactNode;
  /** Makes the scrolling table a named region that the keyboard reaches. */
  regionLabel?: string;
}

/** The lines of a trade file that the import leaves out, each with why. */
export function RejectedLinesTable({ lines, caption, regionLabel }: RejectedLinesTableProps) {
  const region = regionLabel ? { role: 'region', 'aria-label': regionLabel, tabIndex: 0 } : {};
  return (
    <div className="table-region" {...region}>
      <table className="data-table">
        <caption>{caption}</caption>
        <ColumnHeadings names={['Line', 'Reason']} />
        <tbody>
          {lines.map((rejected) => (
            <tr key={rejected.line}>
              <td>{rejected.line}</td>
              <td>{rejected.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
