import { MODULE } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import type { ResourceBehaviour } from '../resources/behaviours.ts';
import { executiveAssignment, subscriberScope } from '../auth/executiveScope.ts';
import { initialSubscriberState } from './subscriberState.ts';

export const subscriberBehaviour: ResourceBehaviour = {
  scope: subscriberScope,
  async prepare(values, change, { tx, user }) {
    // A new subscriber has no subscription yet; from then on the subscriptions keep these (subscriberState.ts).
    if (change.kind === 'create') Object.assign(values, initialSubscriberState());
    const assignment = executiveAssignment();
    if (
      change.kind !== 'create' ||
      !user ||
      !assignment ||
      !user.grants.can(MODULE.subscribers, 'executive_access') ||
      values[assignment.field] !== undefined
    )
      return;
    // An executive's new subscriber is assigned to that executive.
    if (!assignment.via) {
      values[assignment.field] = user.id;
      return;
    }
    const [own] = await tx.query<{ id: number }>(
      `SELECT id FROM ${quoted(assignment.via.table)} WHERE ${quoted(assignment.via.userField)} = $1 ORDER BY id LIMIT 1`,
      [user.id],
    );
    if (own) values[assignment.field] = own.id;
  },
};
