import { Fragment, useState } from 'react';
import { ACTION_LABELS, MODULE_ACTIONS, MODULE_LABELS } from '../../../generated/permissions.ts';
import { hasAction, withAction, withModule, type MatrixArea, type PermissionSet } from './permissionMatrix.ts';

export interface PermissionMatrixProps {
  areas: readonly MatrixArea[];
  value: PermissionSet;
  onChange: (value: PermissionSet) => void;
  disabled?: boolean;
}

/**
 * Modules grouped by area × actions: one checkbox per action a module offers, and one for all of them. A box that
 * takes others along (View and the actions that need it) says so at once, before anything is saved.
 */
export function PermissionMatrix({ areas, value, onChange, disabled = false }: PermissionMatrixProps) {
  const [note, setNote] = useState<{ module: string; text: string } | null>(null);
  return (
    <div className="permission-matrix">
      <p className="visually-hidden" role="status">
        {note?.text}
      </p>
      {areas.map((area) => (
        <table key={area.module} className="data-table permission-matrix__area">
          <caption>{area.label}</caption>
          <thead>
            <tr>
              <th scope="col">Module</th>
              <th scope="col">All</th>
              {area.actions.map((action) => (
                <th key={action} scope="col">
                  {ACTION_LABELS[action]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {area.modules.map((module) => {
              const offered = MODULE_ACTIONS[module];
              const label = MODULE_LABELS[module];
              const all = offered.every((action) => hasAction(value, module, action));
              return (
                <Fragment key={module}>
                  <tr>
                    <th scope="row">{label}</th>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`${label}: all actions`}
                        checked={all}
                        disabled={disabled}
                        onChange={(event) => {
                          setNote(null);
                          onChange(withModule(value, module, event.target.checked));
                        }}
                      />
                    </td>
                    {area.actions.map((action) => (
                      <td key={action}>
                        {offered.includes(action) && (
                          <input
                            type="checkbox"
                            aria-label={`${label}: ${ACTION_LABELS[action]}`}
                            checked={hasAction(value, module, action)}
                            disabled={disabled}
                            onChange={(event) => {
                              const change = withAction(value, module, action, event.target.checked);
                              setNote(change.note === null ? null : { module, text: change.note });
                              onChange(change.set);
                            }}
                          />
                        )}
                      </td>
                    ))}
                  </tr>
                  {/* Shown where the box was ticked; the status line above says it to screen readers. */}
                  {note?.module === module && (
                    <tr className="permission-matrix__note">
                      <td colSpan={area.actions.length + 2} aria-hidden="true">
                        {note.text}
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      ))}
    </div>
  );
}
