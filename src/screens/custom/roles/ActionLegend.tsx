import { ACTION_LABELS, type ActionName } from '../../../generated/permissions.ts';
import { ACTION_MEANINGS } from './actionMeanings.ts';

/** What each column of the matrix means, said once; the column headings repeat it as a tooltip. */
export function ActionLegend({ actions }: { actions: readonly ActionName[] }) {
  return (
    <details className="permission-legend">
      <summary>What the actions mean</summary>
      <dl>
        {actions.map((action) => (
          <div key={action}>
            <dt>{ACTION_LABELS[action]}</dt>
            <dd>{ACTION_MEANINGS[action]}</dd>
          </div>
        ))}
        <div>
          <dt>implied</dt>
          <dd>
            View is ticked because another action of the module needs it; taking View away takes those actions too.
          </dd>
        </div>
      </dl>
    </details>
  );
}
