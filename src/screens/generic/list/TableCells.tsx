import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

export interface TableTextProps {
  text: string;
  /** Where the record opens: the text is then a link to it (a middle click, a screen reader's list of links). */
  path: string | null;
  /** Only the row that holds the table's focus puts its link in the Tab order. */
  tabbable: boolean;
}

/** A cell's text on one line, cut with an ellipsis when long, the whole of it in its title. */
export function TableText({ text, path, tabbable }: TableTextProps) {
  if (!path) {
    return (
      <span className="cell-text" title={text}>
        {text}
      </span>
    );
  }
  return (
    <Link className="cell-text row-link" to={path} title={text} tabIndex={tabbable ? 0 : -1}>
      {text}
    </Link>
  );
}

export interface TableCardCellProps extends Omit<TableTextProps, 'text'> {
  label: string;
  /** The most important values after the label, each with its column's title (said; shown too when `titled`). */
  values: readonly { name: string; title: string; value: ReactNode; titled?: boolean }[];
}

/** A phone's row: the record's label, and under it the most important values on a muted line. */
export function TableCardCell({ label, path, tabbable, values }: TableCardCellProps) {
  return (
    <div className="row-card">
      <TableText text={label} path={path} tabbable={tabbable} />
      {values.length > 0 && (
        <span className="row-card__values">
          {values.map(({ name, title, value, titled }) => (
            <span key={name} className="row-card__value">
              <span className={titled ? undefined : 'visually-hidden'}>
                {title}
                {titled ? ' ' : ': '}
              </span>
              {value}
            </span>
          ))}
        </span>
      )}
    </div>
  );
}
