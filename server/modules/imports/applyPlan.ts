import type { Row } from '../../db/database.ts';
import type { WriteContext } from '../resources/behaviours.ts';
import type { ResourceContext } from '../resources/resourceContext.ts';
import type { RowPlan } from './plan.ts';

/**
 * Writes one batch of planned rows through the record operations, in the caller's transaction: the new records, and
 * the updates each at the version the plan read.
 */
export async function applyBatch(
  context: WriteContext,
  resourceContext: ResourceContext,
  plans: readonly RowPlan[],
): Promise<void> {
  const creates = plans.filter((plan) => plan.outcome === 'create').map((plan) => plan.body);
  const updates = plans
    .filter((plan) => plan.outcome === 'update')
    .map((plan) => ({
      before: withoutScopeFlag(plan.existing!) as Row & { id: number; version: number },
      body: plan.body,
    }));
  if (creates.length > 0 || updates.length > 0) await resourceContext.records.importBatch(context, creates, updates);
}

function withoutScopeFlag(row: Row): Row {
  const { __in_scope: _flag, ...record } = row;
  return record;
}
