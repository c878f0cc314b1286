import type { FastifyInstance } from 'fastify';
import { notFound } from '../../http/errors.ts';
import { MODULE, entityResource, type EntityResource } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import { permission } from '../auth/access.ts';
import { subscriberScope } from '../auth/executiveScope.ts';
import type { SessionUser } from '../auth/session.ts';
import { recordSchema } from '../resources/answers.ts';
import { ResourceTable } from '../resources/sql.ts';
import { subscriberAnswers } from './schemas.ts';

export const EXECUTIVE_SCOPE = 'An executive (`executive_access`) reaches only the subscribers assigned to them.';

/** What may be done to a subscriber, each with the SUBSCRIBERS action its route requires. */
export const SUBSCRIBER_ACTIONS = {
  add_subscription: 'ADD_SUBSCRIPTION',
  cancel_subscription: 'ADD_SUBSCRIPTION',
  add_top_up: 'ADD_TOP_UP',
} as const;
export type SubscriberAction = keyof typeof SUBSCRIBER_ACTIONS;

/** A subscription in force today (row alias `s`). */
export const IN_FORCE =
  '(s.cancelled_at IS NULL AND s.starts_on <= current_date AND (s.ends_on IS NULL OR s.ends_on >= current_date))';

/** Where a subscription (row alias `s`) stands today: scheduled, current, ended or cancelled. */
export const SUBSCRIPTION_STATE = `CASE WHEN s.cancelled_at IS NOT NULL THEN 'cancelled' WHEN s.starts_on > current_date THEN 'scheduled'
  WHEN s.ends_on < current_date THEN 'ended' ELSE 'current' END`;

/** The plan's name of a subscription (row alias `s`), as SQL. */
export function planLabelSql(): string {
  const plans = entityResource(MODULE.plans);
  return plans ? `(SELECT p."name"::text FROM ${quoted(plans.entity.table)} p WHERE p.id = s.plan_id)` : 'NULL::text';
}

/** What every subscriber route shares: the resource, its permissions and answers, and the subscriber within the caller's scope. */
export function subscriberRouteParts(app: FastifyInstance, subscribers: EntityResource) {
  const table = new ResourceTable(subscribers);
  return {
    table,
    tags: [subscribers.label],
    answers: subscriberAnswers(recordSchema(subscribers)),
    can: (action: string) => permission(MODULE.subscribers, action),
    /** The access rule of the route that does `action`: the same check `allowedActions` reports. */
    mayDo: (action: SubscriberAction) => permission(MODULE.subscribers, SUBSCRIBER_ACTIONS[action]),
    /**
     * What the caller may do to a subscriber `loadSubscriber` gave them (so within their scope), by the rule each route
     * applies: the console offers a control only when its route would accept it.
     */
    allowedActions(user: SessionUser): Record<SubscriberAction, boolean> {
      const entries = Object.entries(SUBSCRIBER_ACTIONS).map(([name, action]) => [
        name,
        subscribers.actions.includes(action) && user.grants.can(MODULE.subscribers, action),
      ]);
      return Object.fromEntries(entries) as Record<SubscriberAction, boolean>;
    },
    /** The subscriber, else 404 (also for one outside an executive's assignment). */
    async loadSubscriber(id: number, user: SessionUser) {
      const row = await table.get(app.db, id, subscriberScope(user));
      if (!row) throw notFound(subscribers.singular);
      return row;
    },
  };
}
