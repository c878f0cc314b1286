import { MODULE_ACTIONS, MODULE_LABELS } from '../../../generated/permissions.ts';
import { humanize } from '../../shared/humanize.ts';
import { hasAction, withAction, withModule, type MatrixArea, type PermissionSet } from './permissionMatrix.ts';

export interface PermissionMatrixProps {
  areas: readonly MatrixArea[];
  value: PermissionSet;
  onChange: (value: PermissionSet) => void;
  disabled?: boolean;
}

/** Modules grouped by area × actions: one checkbox per action a module offers, and one for all of them. */
export function PermissionMatrix({ areas, value, onChange, disabled = false }: PermissionMatrixProps) {
  return (
    <div className="permission-matrix">
      {areas.map((area) => (
        <table key={area.module} className="data-table permission-matrix__area">
          <caption>{area.label}</caption>
          <thead>
            <tr>
              <th scope="col">Module</th>
              <th scope="col">All</th>
              {area.actions.map((action) => (
                <th key={action} scope="col">
                  {humanize(action)}
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
                <tr key={module}>
                  <th scope="row">{label}</th>
                  <td>
                    <input type="checkbox" aria-label={`${label}: all actions`} checked={all} disabled={disabled} onChange={(event) => onChange(withModule(value, module, event.target.checked))} />
                  </td>
                  {area.actions.map((action) => (
                    <td key={action}>
                      {offered.includes(action) && (
                        <input
                          type="checkbox"
                          aria-label={`${label}: ${humanize(action)}`}
                          checked={hasAction(value, module, action)}
                          disabled={disabled}
                          onChange={(event) => onChange(withAction(value, module, action, event.target.checked))}
                        />
                      )}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      ))}
    </div>
  );
}
