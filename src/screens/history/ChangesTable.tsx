import type { ReadableChange } from './readableChanges.ts';
import './ChangesTable.css';
import { ColumnHeadings } from '../shared/ColumnHeadings.tsx';

export interface ChangesTableProps {
  changes: readonly ReadableChange[];
  /** What the table is about, for assistive technology: "Changes of 12 Nov 2026, 10:04 am". */
  caption: string;
}

/** The changed fields of one entry, before and after; a secret says only that it changed. */
export function ChangesTable({ changes, caption }: ChangesTableProps) {
  if (changes.length === 0) return <p className="changes-none">No field changed.</p>;
  return (
    // A region of its own that scrolls sideways on a narrow screen, reachable from the keyboard.
    <div className="table-region" role="region" aria-label={caption} tabIndex={0}>
      <table className="data-table changes-table">
        <caption className="visually-hidden">{caption}</caption>
        <ColumnHeadings names={['Field', 'Before', 'After']} />
        <tbody>
          {changes.map((change) => (
            <tr key={change.field}>
              <th scope="row">{change.title}</th>
              {change.before === null ? (
                <td colSpan={2}>Changed (not shown)</td>
              ) : (
                <>
                  <td>{change.before}</td>
                  <td>{change.after}</td>
                </>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
