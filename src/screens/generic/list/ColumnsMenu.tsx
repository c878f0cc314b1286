import { Dropdown } from '../../../header/Dropdown.tsx';
import type { FieldDescription } from '../../../generated/types.ts';

export interface ColumnsMenuProps {
  /** The fields a list may show, in the manifest's order. */
  fields: readonly FieldDescription[];
  shown: readonly string[];
  /** Called with the new columns in order, or null for the manifest's. */
  onChange: (columns: string[] | null) => void;
}

/** Shows, hides and orders the list's columns; shown ones first, in their order, then the hidden ones. */
export function ColumnsMenu({ fields, shown, onChange }: ColumnsMenuProps) {
  const title = (name: string) => fields.find((field) => field.name === name)?.title ?? name;
  const hidden = fields.map((field) => field.name).filter((name) => !shown.includes(name));
  const move = (index: number, by: -1 | 1) => {
    const next = [...shown];
    [next[index], next[index + by]] = [next[index + by]!, next[index]!];
    onChange(next);
  };
  return (
    <Dropdown label="Columns" className="list-menu" trigger={<span>Columns</span>}>
      {() => (
        <div className="list-menu-panel">
          <p className="list-menu-heading" id="columns-shown">
            Shown, in order
          </p>
          <ul className="columns-list" aria-labelledby="columns-shown">
            {shown.map((name, index) => (
              <li key={name}>
                <label>
                  <input
                    type="checkbox"
                    checked
                    disabled={shown.length === 1}
                    onChange={() => onChange(shown.filter((other) => other !== name))}
                  />
                  {title(name)}
                </label>
                <span className="columns-moves">
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={`Move ${title(name)} up`}
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={`Move ${title(name)} down`}
                    disabled={index === shown.length - 1}
                    onClick={() => move(index, 1)}
                  >
                    ↓
                  </button>
                </span>
              </li>
            ))}
          </ul>
          {hidden.length > 0 && (
            <>
              <p className="list-menu-heading" id="columns-hidden">
                Hidden
              </p>
              <ul className="columns-list" aria-labelledby="columns-hidden">
                {hidden.map((name) => (
                  <li key={name}>
                    <label>
                      <input type="checkbox" checked={false} onChange={() => onChange([...shown, name])} />
                      {title(name)}
                    </label>
                  </li>
                ))}
              </ul>
            </>
          )}
          <button type="button" className="link-button" onClick={() => onChange(null)}>
            Reset to the standard columns
          </button>
        </div>
      )}
    </Dropdown>
  );
}
