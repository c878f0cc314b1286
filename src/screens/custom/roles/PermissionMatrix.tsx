import { useId, useMemo, useState, type ReactNode } from 'react';
import { ACTION_LABELS, MODULE_LABELS, type ActionName, type ModuleKey } from '../../../generated/permissions.ts';
import { ActionLegend } from './ActionLegend.tsx';
import { TriStateBox } from './TriStateBox.tsx';
import { ACTION_MEANINGS } from './actionMeanings.ts';
import {
  filterAreas,
  grantedState,
  hasAction,
  matrixColumns,
  offersAction,
  viewImplied,
  withAction,
  withColumn,
  withModules,
  type MatrixArea,
  type PermissionSet,
} from './permissionMatrix.ts';
import './permissionMatrix.css';

export interface PermissionMatrixProps {
  areas: readonly MatrixArea[];
  value: PermissionSet;
  onChange: (value: PermissionSet) => void;
  disabled?: boolean;
  /** More tools beside the search box; `apply` replaces the whole set and says why in the matrix's status line. */
  tools?: (apply: (value: PermissionSet, note: string) => void) => ReactNode;
}

/**
 * One table for every module: areas as groups of rows, actions as columns (explained once, in the legend), a box to
 * select a module's row, an area or a column, and a search that narrows the rows. A box that takes others along
 * (View and the actions that need it) says so at once, before anything is saved.
 */
export function PermissionMatrix({ areas, value, onChange, disabled = false, tools }: PermissionMatrixProps) {
  const [query, setQuery] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const impliedId = useId();
  const columns = useMemo(() => matrixColumns(areas), [areas]);
  const shown = useMemo(() => filterAreas(areas, query), [areas, query]);
  const shownModules = shown.flatMap((area) => [area.module, ...area.modules]);
  const change = (next: PermissionSet, text: string | null) => {
    setNote(text);
    onChange(next);
  };

  const box = (module: ModuleKey, action: ActionName, label: string) => {
    const implied = action === 'view' && viewImplied(value, module);
    return (
      <>
        <input
          type="checkbox"
          aria-label={`${label}: ${ACTION_LABELS[action]}`}
          aria-describedby={implied ? impliedId : undefined}
          checked={hasAction(value, module, action)}
          disabled={disabled}
          onChange={(event) => {
            const result = withAction(value, module, action, event.target.checked);
            change(result.set, result.note);
          }}
        />
        {implied && (
          <span className="permission-matrix__implied" aria-hidden="true">
            implied
          </span>
        )}
      </>
    );
  };

  const rowHeading = (modules: ModuleKey[], label: string, selectLabel: string) => (
    <label className="permission-matrix__row-label">
      <TriStateBox
        label={selectLabel}
        state={grantedState(value, modules)}
        disabled={disabled}
        onChange={(checked) => change(withModules(value, modules, checked), null)}
      />
      <span>{label}</span>
    </label>
  );

  return (
    <div className="permission-matrix">
      <div className="permission-matrix__tools">
        <input
          type="search"
          className="permission-matrix__search"
          aria-label="Search modules"
          placeholder="Search modules"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        {tools?.((next, text) => change(next, text))}
      </div>
      <ActionLegend actions={columns} />
      <p className="permission-matrix__note" role="status">
        {note}
      </p>
      <span id={impliedId} hidden>
        Ticked because another action of this module needs it.
      </span>
      {shown.length === 0 ? (
        <p className="empty-state">No module matches “{query.trim()}”.</p>
      ) : (
        <div className="permission-matrix__panel" role="region" aria-label="Permissions by module" tabIndex={0}>
          <table className="permission-matrix__table">
            <thead>
              <tr>
                <th scope="col" className="permission-matrix__module-col">
                  Module
                </th>
                {columns.map((action) => (
                  <th key={action} scope="col" title={ACTION_MEANINGS[action]}>
                    <label className="permission-matrix__column-label">
                      <span>{ACTION_LABELS[action]}</span>
                      <TriStateBox
                        label={`${ACTION_LABELS[action]}: every module shown`}
                        state={grantedState(value, shownModules, action)}
                        disabled={disabled}
                        onChange={(checked) => {
                          const result = withColumn(value, shownModules, action, checked);
                          change(result.set, result.note);
                        }}
                      />
                    </label>
                  </th>
                ))}
              </tr>
            </thead>
            {shown.map((area) => (
              <tbody key={area.module}>
                <tr className="permission-matrix__area">
                  <th scope="rowgroup">
                    {rowHeading([area.module, ...area.modules], area.label, `${area.label}: every action of the area`)}
                  </th>
                  {columns.map((action) => (
                    <td key={action}>
                      {action === 'view' && offersAction(area.module, 'view') && box(area.module, 'view', area.label)}
                    </td>
                  ))}
                </tr>
                {area.modules.map((module) => (
                  <tr key={module}>
                    <th scope="row">
                      {rowHeading([module], MODULE_LABELS[module], `${MODULE_LABELS[module]}: all actions`)}
                    </th>
                    {columns.map((action) => (
                      <td key={action}>{offersAction(module, action) && box(module, action, MODULE_LABELS[module])}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
        </div>
      )}
    </div>
  );
}
